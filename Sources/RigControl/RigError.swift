import Processes
package import System

/// Why a rig cannot be loaded, chosen, built or run — with what to do about it.
package typealias RigError = ModuleError<RigErrorCode>

/// The kinds of `RigError`.
package enum RigErrorCode: String, Sendable {
    case rigFile
    case unknownRig
    case noRunnableRig
    case missingTool
    case imageBuild
    case boot
    case notReady
    case timeout
    case interrupted
    case guestCommand
    /// The vm guest stopped while the command ran, without its exit status: the rig broke during the run.
    case guestStopped
    /// A fault step could not manipulate the rig (restart bluetoothd, deny uinput).
    case fault
}

extension RigError {
    /// A command or daemon that could not be started or did not finish, as a rig error: the same words; a program
    /// that cannot be started is a missing tool, with `bash Rigs/setup.sh` as the next step.
    /// - Parameter code: the code for failures other than starting and timing out.
    package init(_ error: SystemError, code: Code) {
        switch error.code {
        case .cannotStart:
            self.init(.missingTool, error.text, hint: "run `bash Rigs/setup.sh` in the project's folder")
        case .timedOut: self.init(.timeout, error.text, hint: error.hint)
        default: self.init(code, error.text, hint: error.hint)
        }
    }
}
