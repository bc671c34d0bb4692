package import System

/// A runner failure that is not a verdict: the rig or the device under test did not do its part.
package typealias RunnerError = ModuleError<RunnerErrorCode>

/// The kinds of `RunnerError`.
package enum RunnerErrorCode: String, Sendable {
    /// A program the rig runs is not installed: ip, tc, a capture tool, the reference client.
    case missingTool
    /// The step needs the rig's hosts (its network namespaces), and this rig has none or they are not as expected.
    case hosts
    /// The step, send item or command does not apply to the transport this run uses (or names no transport).
    case wrongTransport
    /// The computer under test did not start, stopped, did not serve, or lacks what the step needs.
    case computer
    /// The phone is not connected, or the link failed under it: nothing could be sent.
    case link
    /// The phone and the computer did not pair, or the computer's pairing state could not be read.
    case pairing
    /// Something the run waited for did not happen in time.
    case timeout
    /// The run was interrupted (cancelled) while this waited.
    case interrupted
    /// A command the rig ran failed: ip, tc, editcap, a capture, the reference client.
    case commandFailed
    /// An option names something that does not exist (a bench path).
    case usage
    /// The scenario's files could not be moved or read.
    case files
}
