/// A wait that ran out of time: what was awaited and for how long ("no the pairing code within 5 s").
package struct WaitTimeout: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was awaited, as it reads after "no": "the pairing code", "udpBound from the computer".
    package var what: String
    package var timeout: Duration

    package init(_ what: String, timeout: Duration) {
        self.what = what
        self.timeout = timeout
    }

    package var description: String { "no \(what) within \(timeout)" }
}
