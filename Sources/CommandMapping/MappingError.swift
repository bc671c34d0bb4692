/// A command that decodes but cannot be turned into events; nothing of it is injected.
public struct MappingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
