/// A failure of the peripheral with what to do about it.
package struct PeripheralError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var hint: String?

    package init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    package var description: String { hint.map { "\(message)\n  → \($0)" } ?? message }
}
