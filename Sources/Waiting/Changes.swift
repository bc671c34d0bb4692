package import Dispatch
import Synchronization

/// Something that changes on another thread (a frame read, a file written, a message received), announced as it
/// happens: the producer calls `signal()`, a waiter awaits the next change after the one it has seen. Nothing is
/// polled: a waiter is one continuation, resumed by the change, by its timeout (a timer on a global queue, as
/// `Completion` has in Processes) or by its task's cancellation, whichever comes first.
package final class Changes: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
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
        for waiter in woken { waiter.resume(returning: true) }
    }

    /// Returns once a change after `seen` was announced (at once when one already was), or when `timeout` passed.
    /// - Returns: whether a change came (false: the time was up first).
    /// - Throws: `CancellationError` when the task is cancelled.
    @discardableResult
    package func next(after seen: UInt64, within timeout: Duration) async throws -> Bool {
        if generation != seen { return true }
        guard timeout > .zero else { return false }
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let changed = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer = state.withLock { state -> Bool? in
                    if state.generation != seen { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = continuation
                    return nil
                }
                if let answer {
                    continuation.resume(returning: answer)
                    return
                }
                DispatchQueue.global().asyncAfter(deadline: .after(timeout)) { [self] in
                    state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
        }
        try Task.checkCancellation()
        return changed || generation != seen
    }
}

extension DispatchTime {
    /// `duration` from now, for a timer on a dispatch queue (at most about 68 years; a negative one is now).
    package static func after(_ duration: Duration) -> DispatchTime {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = max(0, min(Int64(Int32.max), seconds)) * 1_000_000_000 + max(0, attoseconds / 1_000_000_000)
        return .now() + .nanoseconds(Int(nanoseconds))
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
