package import System

/// The computer under test as a process did not do its part: it did not start, stopped, or did not serve.
package typealias ComputerError = ModuleError<ComputerErrorCode>

/// The kinds of `ComputerError`.
package enum ComputerErrorCode: String, Sendable {
    /// The computer did not start, stopped, did not serve, or lacks what the step needs.
    case computer
    /// The run was interrupted (cancelled) while this waited.
    case interrupted
}
