/// A runner failure that is not a verdict: the rig or the device under test did not do its part.
package struct RunnerError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
