import Foundation
import Synchronization
import Waiting

/// A value that arrives once (a child's end, a collected output), and everyone waiting for it: continuations of
/// async callers and semaphores of blocking ones. A timeout is a timer on a global queue that removes its waiter;
/// nothing polls. The first `complete` wins; later ones are ignored.
final class Completion<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [UInt64: @Sendable (Value?) -> Void] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The value once it arrived; nil before.
    var value: Value? { state.withLock { $0.value } }

    /// Sets the value and wakes every waiter; does nothing when it was set already.
    func complete(_ value: Value) {
        let waiters = state.withLock { state -> [@Sendable (Value?) -> Void] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter(value) }
    }

    /// Suspends until the value arrives, or `timeout` passes (then nil); nil for `timeout` waits however long.
    func wait(timeout: Duration?) async -> Value? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            guard let id = register({ continuation.resume(returning: $0) }) else {
                continuation.resume(returning: value)
                return
            }
            if let timeout {
                DispatchQueue.global().asyncAfter(deadline: .after(timeout)) { self.expire(id) }
            }
        }
    }

    /// Suspends until the value arrives.
    func wait() async -> Value {
        // Without a timeout the waiter is only ever resumed with the value.
        await wait(timeout: nil)!
    }

    /// Blocks the calling thread until the value arrives, or `timeout` passes (then nil). For synchronous code only.
    func waitBlocking(timeout: Duration?) -> Value? {
        let semaphore = DispatchSemaphore(value: 0)
        guard let id = register({ _ in semaphore.signal() }) else { return value }
        if semaphore.wait(timeout: timeout.map(DispatchTime.after) ?? .distantFuture) == .timedOut {
            state.withLock { _ = $0.waiters.removeValue(forKey: id) }
        }
        return value
    }

    /// Runs `action` with the value once it arrives, on the thread that completes it (at once, here, when it is there
    /// already): for a caller that must hear of it without a task of its own waiting.
    func whenDone(_ action: @escaping @Sendable (Value) -> Void) {
        if register({ value in if let value { action(value) } }) == nil, let value { action(value) }
    }

    /// Adds a waiter; nil when the value is there already (the caller answers at once).
    private func register(_ waiter: @escaping @Sendable (Value?) -> Void) -> UInt64? {
        state.withLock { state in
            guard state.value == nil else { return nil }
            let id = state.nextWaiter
            state.nextWaiter += 1
            state.waiters[id] = waiter
            return id
        }
    }

    private func expire(_ id: UInt64) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?(nil)
    }
}
