package import System

/// A runner failure that is not a verdict: the computer did not do its part, or the run was interrupted.
package typealias RunnerError = ModuleError<RunnerErrorCode>

/// The kinds of `RunnerError`.
package enum RunnerErrorCode: String, Sendable {
    /// The computer under test did not start, stopped, or did not serve.
    case computer
    /// The run was interrupted (cancelled) while this waited.
    case interrupted
    /// The scenario needs a phone this run did not start.
    case phone
}
