package import System

/// A runner failure that is not a verdict: the run was interrupted.
package typealias RunnerError = ModuleError<RunnerErrorCode>

/// The kinds of `RunnerError`.
package enum RunnerErrorCode: String, Sendable {
    /// The run was interrupted (cancelled) while this waited.
    case interrupted
    /// The scenario needs a phone this run did not start.
    case phone
}
