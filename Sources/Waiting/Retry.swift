/// Trying an operation again after it failed: not a wait for a condition (that is `Changes` or `Poll`), but a
/// second chance for an operation that is known to fail now and then (a power-on that an emulated controller times out).
package enum Retry {
    /// Tries `attempt` up to `tries` times with `pause` between two tries.
    /// - Returns: what the first successful try returned, and which try it was (1-based).
    /// - Throws: the last try's error when none succeeded; `CancellationError` when the task is cancelled.
    package static func times<Value>(
        _ tries: Int, pause: Duration, _ attempt: (Int) async throws -> Value
    ) async throws -> (value: Value, attempt: Int) {
        var index = 1
        while true {
            do {
                return (try await attempt(index), index)
            } catch where index < tries {
                try await Task.sleep(for: pause)
                index += 1
            }
        }
    }

    /// Tries `attempt` until it succeeds, with `pause` between two tries, for at most `timeout` (a try under way then
    /// finishes).
    /// - Returns: what the first successful try returned.
    /// - Throws: `WaitTimeout` "no `what` within `timeout`" when none succeeded in time; `CancellationError`.
    package static func within<Value>(
        _ timeout: Duration, for what: String, pause: Duration, _ attempt: () async throws -> Value
    ) async throws -> Value {
        let deadline = ContinuousClock.now + timeout
        while true {
            do {
                return try await attempt()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                guard ContinuousClock.now + pause < deadline else { throw WaitTimeout(what, timeout: timeout) }
                try await Task.sleep(for: pause)
            }
        }
    }
}
