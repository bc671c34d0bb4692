/// The one loop for what must be polled because nothing signals it (a file another process writes, a value a
/// child prints): it reads every `interval` until a value comes, with a named timeout, and ends at once when its
/// task is cancelled. Prefer an event (a D-Bus signal, a pidfd, inotify) wherever there is one.
package enum Poll {
    /// Reads until `read` returns a value.
    ///
    /// - Parameters:
    ///   - what: what is awaited, for the timeout's message ("no the pairing code within 5 s" reads as "no <what>").
    ///   - timeout: how long to keep reading.
    ///   - interval: the pause between reads.
    ///   - read: returns the value once it is there, nil before.
    /// - Returns: the first value `read` returned.
    /// - Throws: `RunnerError` "no `what` within `timeout`", `CancellationError` when the task is cancelled, or what
    ///   `read` throws.
    package static func until<Value>(
        _ what: String, timeout: Duration, every interval: Duration = .milliseconds(10), _ read: () throws -> Value?
    ) async throws -> Value {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = try read() { return value }
            guard ContinuousClock.now < deadline else { throw RunnerError("no \(what) within \(timeout)") }
            try await Task.sleep(for: interval)
        }
    }

    /// Reads until `read` returns a string that is not empty.
    package static func nonEmpty(_ what: String, timeout: Duration, _ read: () -> String?) async throws -> String {
        try await until(what, timeout: timeout) { read().flatMap { $0.isEmpty ? nil : $0 } }
    }
}
