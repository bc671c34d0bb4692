package import System

/// Why a session cannot be turned into a scenario: names the file and line, what was wrong, and (in the same
/// sentence) what to do.
package typealias RecordingError = ModuleError<RecordingErrorCode>

/// The kinds of `RecordingError`.
package enum RecordingErrorCode: String, Sendable {
    /// The computer carried out nothing: there is nothing to record.
    case nothingToRecord
    /// A receipt's payload does not read as what the computer could have taken.
    case unreadableReceipt
    /// The receipts log cut a payload the recording would have to replay.
    case truncatedPayload
    /// The computer took a report or packet on another transport than the session is recorded as.
    case wrongTransport
    /// A frame holds events a recording cannot expect (only keys and relative motion).
    case unexpectableFrame
    /// A live recording's computer serves, but its input device cannot be read.
    case computer
}
