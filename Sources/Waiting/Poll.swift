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

    /// `until` on another clock than real time (a virtual one moves on at each sleep: `PollTests` time out in it).
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

    /// Reads until `read` returns a value or `timeout` has passed, for waits whose running out of time is an outcome,
    /// not a failure (a settle that reports how long it took, a check that has a fallback); a nil `timeout` reads for
    /// as long as it takes.
    /// - Returns: the first value `read` returned, or nil when the time was up first (`read` was then called once more
    ///   at or after the timeout, so a value that came during the last pause is not missed).
    /// - Throws: `CancellationError` when the task is cancelled, or what `read` throws.
    package static func upTo<Value>(
        _ timeout: Duration?, every interval: Duration = .milliseconds(10), _ read: () async throws -> Value?
    ) async throws -> Value? {
        let clock = ContinuousClock()
        return try await loop(until: timeout.map { clock.now.advanced(by: $0) }, every: interval, on: clock, read)
    }

    /// `upTo` on another clock than real time.
    package static func upTo<Value, C: Clock<Duration>>(
        _ timeout: Duration, every interval: Duration = .milliseconds(10), on clock: C, _ read: () async throws -> Value?
    ) async throws -> Value? {
        try await loop(until: clock.now.advanced(by: timeout), every: interval, on: clock, read)
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
