/// Why a session cannot be turned into a scenario: names the file and line, what was wrong, and what to do.
public struct RecordingError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
