/// Waits on an event with a named timeout: the event is whatever `operation` awaits (a D-Bus signal stream, a
/// continuation another thread resumes); the timeout is a timer raced against it. Nothing is polled.
package enum Wait {
    /// Runs `operation` and returns what it returns, unless `timeout` passes first: then `operation` is cancelled
    /// (an `AsyncStream` loop ends at once; a D-Bus call in flight ends when its reply comes) and this throws.
    ///
    /// - Parameters:
    ///   - timeout: how long the event may take.
    ///   - what: what is awaited, for the timeout's message ("no <what> within <timeout>").
    ///   - operation: awaits the event.
    /// - Returns: what `operation` returned.
    /// - Throws: `WaitTimeout` "no `what` within `timeout`", `CancellationError` when the task is cancelled, or what
    ///   `operation` throws.
    package static func within<Value: Sendable>(
        _ timeout: Duration, for what: String, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let outcome = try await withThrowingTaskGroup(of: Outcome<Value>.self) { group in
            group.addTask { .value(try await operation()) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return .timedOut
            }
            defer { group.cancelAll() }
            // Both tasks end: the group's first result is the operation's or the timer's.
            return try await group.next() ?? .timedOut
        }
        switch outcome {
        case .value(let value): return value
        case .timedOut:
            try Task.checkCancellation()
            throw WaitTimeout(what, timeout: timeout)
        }
    }

    private enum Outcome<Value: Sendable>: Sendable {
        case value(Value)
        case timedOut
    }
}
