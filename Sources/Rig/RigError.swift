import Processes
package import System

/// Why a rig cannot be loaded, chosen, built or run — with what to do about it.
package struct RigError: Error, Sendable, CustomStringConvertible {
    package enum Code: String, Sendable {
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
        /// A fault step could not manipulate the rig (restart bluetoothd, deny uinput).
        case fault
    }

    package var code: Code
    package var message: String
    /// The next step for the person reading it, if there is one.
    package var hint: String?

    package init(_ code: Code, _ message: String, hint: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
    }

    package var description: String {
        hint.map { "\(message)\n  → \($0)" } ?? message
    }
}

extension RigError {
    /// A command or daemon that could not be started or did not finish, as a rig error: the same words; a program
    /// that cannot be started is a missing tool, with `bash Rigs/setup.sh` as the next step.
    /// - Parameter code: the code for failures other than starting and timing out.
    package init(_ error: SystemError, code: Code) {
        switch error.code {
        case .cannotStart: self.init(.missingTool, error.text, hint: "run `bash Rigs/setup.sh`")
        case .timedOut: self.init(.timeout, error.text, hint: error.hint)
        default: self.init(code, error.text, hint: error.hint)
        }
    }
}
