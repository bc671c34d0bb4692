/// The one loop for what must be polled because nothing signals it (a file another process writes, a value a
/// child prints, the kernel's HCI monitor queue): it reads every `interval` until a value comes, with a named
/// timeout, and ends at once when its task is cancelled. Prefer an event (a D-Bus signal, a pidfd, inotify)
/// wherever there is one: `Wait.within` races an event stream against a timeout.
package enum Poll {
    /// Reads until `read` returns a value.
    ///
    /// - Parameters:
    ///   - what: what is awaited, for the timeout's message ("no the pairing code within 5 s" reads as "no <what>").
    ///   - timeout: how long to keep reading.
    ///   - interval: the pause between reads.
    ///   - read: returns the value once it is there, nil before; what it throws ends the wait (a child that died).
    /// - Returns: the first value `read` returned.
    /// - Throws: `WaitTimeout` "no `what` within `timeout`", `CancellationError` when the task is cancelled, or what
    ///   `read` throws.
    package static func until<Value>(
        _ what: String, timeout: Duration, every interval: Duration = .milliseconds(10), _ read: () async throws -> Value?
    ) async throws -> Value {
        try await until(what, timeout: timeout, every: interval, on: ContinuousClock(), read)
    }

    /// `until` on another clock than real time (a scenario's driver passes its own: virtual time in `hil replay`).
    package static func until<Value, C: Clock<Duration>>(
        _ what: String, timeout: Duration, every interval: Duration = .milliseconds(10), on clock: C, _ read: () async throws -> Value?
    ) async throws -> Value {
        guard let value = try await upTo(timeout, every: interval, on: clock, read) else { throw WaitTimeout(what, timeout: timeout) }
        return value
    }

    /// Reads until `read` returns a value, with no time limit: only the task's cancellation or what `read` throws
    /// ends the wait (a process held until a file appears, for as long as the process that holds it lives).
    /// - Throws: `CancellationError` when the task is cancelled, or what `read` throws.
    package static func until<Value>(every interval: Duration = .milliseconds(10), _ read: () async throws -> Value?)
        async throws -> Value
    {
        // Without a deadline the loop returns only with a value (or throws).
        try await loop(until: nil, every: interval, on: ContinuousClock(), read)!
    }

    /// Reads until `read` returns a string that is not empty.
    package static func nonEmpty(_ what: String, timeout: Duration, _ read: () -> String?) async throws -> String {
        try await until(what, timeout: timeout) { read().flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// Reads until `read` returns a value or `timeout` has passed, for waits whose running out of time is an outcome,
    /// not a failure (a settle that reports how long it took, a check that has a fallback).
    /// - Returns: the first value `read` returned, or nil when the time was up first (`read` was then called once more
    ///   at or after the timeout, so a value that came during the last pause is not missed).
    /// - Throws: `CancellationError` when the task is cancelled, or what `read` throws.
    package static func upTo<Value>(
        _ timeout: Duration, every interval: Duration = .milliseconds(10), _ read: () async throws -> Value?
    ) async throws -> Value? {
        try await upTo(timeout, every: interval, on: ContinuousClock(), read)
    }

    /// `upTo` on another clock than real time.
    package static func upTo<Value, C: Clock<Duration>>(
        _ timeout: Duration, every interval: Duration = .milliseconds(10), on clock: C, _ read: () async throws -> Value?
    ) async throws -> Value? {
        try await loop(until: clock.now.advanced(by: timeout), every: interval, on: clock, read)
    }

    /// Reads `read` every `quiet` until two reads in a row agree (nothing changed for `quiet`), at most `timeout`:
    /// for the stragglers of a stream, whose end nothing announces.
    /// - Returns: the last value read, settled or not.
    /// - Throws: `CancellationError` when the task is cancelled.
    @discardableResult
    package static func settled<Value: Equatable>(quiet: Duration, timeout: Duration, _ read: () -> Value) async throws -> Value {
        var last: Value?
        let settled: Value? = try await upTo(timeout, every: quiet) {
            let now = read()
            defer { last = now }
            return now == last ? now : nil
        }
        return settled ?? last ?? read()
    }

    /// Tries `attempt` up to `tries` times with `pause` between two tries.
    /// - Returns: what the first successful try returned, and which try it was (1-based).
    /// - Throws: the last try's error when none succeeded; `CancellationError` when the task is cancelled.
    package static func retrying<Value>(
        _ tries: Int, pause: Duration, _ attempt: (Int) async throws -> Value
    ) async throws -> (value: Value, attempt: Int) {
        var index = 0
        let value: Value = try await until(every: pause) {
            index += 1
            do {
                return try await attempt(index)
            } catch where index < tries {
                try Task.checkCancellation()
                return nil
            }
        }
        return (value, index)
    }

    /// Reads every `interval` until a value comes or `deadline` (if any) has passed; `read` is called once more at
    /// the deadline, so a value that came during the last pause is not missed.
    private static func loop<Value, C: Clock<Duration>>(
        until deadline: C.Instant?, every interval: Duration, on clock: C, _ read: () async throws -> Value?
    ) async throws -> Value? {
        while true {
            if let value = try await read() { return value }
            var pause = interval
            if let deadline {
                let left = clock.now.duration(to: deadline)
                guard left > .zero else { return nil }
                pause = min(pause, left)
            }
            try await Task.sleep(for: pause, clock: clock)
        }
    }
}
