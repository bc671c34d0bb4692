/// A lab run's failure, with what a person needs to fix it: which place, which command, what it printed, what to
/// run next.
package struct LabError: Error, CustomStringConvertible, Sendable {
    package var description: String

    package init(_ description: String, hint: String? = nil) {
        self.description = description + (hint.map { "\n  hint: \($0)" } ?? "")
    }
}
