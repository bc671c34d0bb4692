package import System

/// A bench, soak or calibration failure that is not a measurement: a path, a tool or the link did not do its part.
package typealias BenchError = ModuleError<BenchErrorCode>

/// The kinds of `BenchError`.
package enum BenchErrorCode: String, Sendable {
    /// An option names something that does not exist (a bench path).
    case usage
    /// The path or delay does not apply to this transport.
    case wrongTransport
    /// A program the bench runs is not installed: the reference client.
    case missingTool
    /// A command the bench ran failed: the reference client, tc.
    case commandFailed
    /// Something the bench waited for did not happen in time.
    case timeout
    /// The computer under test did not do its part.
    case computer
    /// The phone is not connected, or the link failed under it.
    case link
    /// The phone and the computer did not pair.
    case pairing
}
