/// Why a rig cannot be loaded, chosen, built or run — with what to do about it.
public struct RigError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
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

    public var code: Code
    public var message: String
    /// The next step for the person reading it, if there is one.
    public var hint: String?

    public init(_ code: Code, _ message: String, hint: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
    }

    public var description: String {
        hint.map { "\(message)\n  → \($0)" } ?? message
    }
}
