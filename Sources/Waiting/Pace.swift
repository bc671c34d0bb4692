/// Sleeps that are the behaviour, not a guess at when something is ready: a status every 2 s, a heartbeat, a
/// progress line, a flush at its due time. Both end at once when their task is cancelled.
package enum Pace {
    /// Runs `body` every `interval` (the first time after one interval) until it returns false or the task is
    /// cancelled; a cancelled task does not run `body` again (`Task.isCancelled` tells the two apart).
    package static func every(_ interval: Duration, _ body: () async -> Bool) async {
        repeat {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return  // only the task's cancellation ends the sleep this way: the pacing stops with it
            }
        } while await body()
    }

    /// Runs `action` once `delay` has passed, in a task of its own (a timer).
    /// - Returns: the timer's task: cancelled before `delay` has passed, `action` never runs.
    @discardableResult
    package static func after(_ delay: Duration, _ action: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        at(.now + delay, action)
    }

    /// Runs `action` at `instant`, in a task of its own (a timer).
    /// - Returns: the timer's task: cancelled before `instant`, `action` never runs.
    @discardableResult
    package static func at(_ instant: ContinuousClock.Instant, _ action: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task {
            do {
                try await Task.sleep(until: instant, clock: .continuous)
            } catch {
                return  // cancelled: the timer was called off
            }
            await action()
        }
    }
}
