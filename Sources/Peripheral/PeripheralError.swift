/// A failure of the peripheral with what to do about it.
public struct PeripheralError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    public var description: String { hint.map { "\(message)\n  → \($0)" } ?? message }
}
