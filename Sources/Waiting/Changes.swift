import Synchronization

/// Something that changes on another thread (a frame read, a file written, a message received), announced as it
/// happens: the producer calls `signal()`, a waiter awaits the next change after the one it has seen. Nothing is
/// polled; a waiter's timeout is a timer raced against the change, as in `Wait.within`.
package final class Changes: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// How many changes were announced so far: a waiter reads it before it looks, and awaits a change after it.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Announces a change: every waiter wakes.
    package func signal() {
        let woken = state.withLock { state in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once a change after `seen` was announced (at once when one already was), or when `timeout` passed.
    /// - Returns: whether a change came (false: the time was up first).
    /// - Throws: `CancellationError` when the task is cancelled.
    @discardableResult
    package func next(after seen: UInt64, within timeout: Duration) async throws -> Bool {
        if generation != seen { return true }
        guard timeout > .zero else { return false }
        let changed = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.change(after: seen) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
        try Task.checkCancellation()
        return changed || generation != seen
    }

    /// Suspends until a change after `seen`; true then, false when the task was cancelled first.
    private func change(after seen: UInt64) async -> Bool {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.generation != seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
        return !Task.isCancelled
    }
}

extension Changes {
    /// Reads once, then again at each change, until `read` returns a value or `timeout` passed: the event-driven
    /// `Poll.until` (each change is awaited, nothing is read on a timer).
    /// - Throws: `WaitTimeout` "no `what` within `timeout`", `CancellationError`, or what `read` throws.
    package func until<Value>(_ what: String, timeout: Duration, _ read: () async throws -> Value?) async throws -> Value {
        guard let value = try await upTo(timeout, read) else { throw WaitTimeout(what, timeout: timeout) }
        return value
    }

    /// Reads once, then again at each change, until `read` returns a value or `timeout` passed (then nil, after one
    /// last read).
    package func upTo<Value>(_ timeout: Duration, _ read: () async throws -> Value?) async throws -> Value? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = generation
            if let value = try await read() { return value }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            try await next(after: seen, within: left)
        }
    }
}

extension Changes {
    /// Returns once no change came for `quiet`, or `timeout` passed: for the stragglers of a stream, whose end
    /// nothing announces.
    /// - Returns: whether it settled (false: changes still came at `timeout`).
    @discardableResult
    package func settled(quiet: Duration, timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let window = min(quiet, left)
            if try await !next(after: generation, within: window) { return window == quiet }
        }
    }
}
