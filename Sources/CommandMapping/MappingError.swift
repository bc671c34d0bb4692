/// A command that decodes but cannot be turned into events; nothing of it is injected.
///
/// It has the package's error shape, what, code and hint (System's `ExplainedError`: this module does
/// not depend on System, and `hil` declares the conformance).
public struct MappingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable {
        /// Text with a character the keyboard layout cannot type.
        case untypableText
    }

    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { what }
    /// `.untypableText`, the one kind there is.
    public var code: Code { .untypableText }
    /// What cannot be typed, naming the character and its position.
    public var what: String { message }
    /// None: the message says nothing was typed; the sender chooses other text.
    public var hint: String? { nil }
}
