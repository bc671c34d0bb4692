/// Why a session cannot be turned into a scenario: names the file and line, what was wrong, and what to do.
package struct RecordingError: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
