import Foundation
import Synchronization

/// Watches one child: a dedicated thread blocks in `waitpid` until the child exits, records how, and wakes every
/// waiter — continuations of async callers and semaphores of blocking ones. Timeouts are timers on a global
/// queue that remove their waiter; nothing polls.
final class ExitMonitor: Sendable {
    private struct State {
        var termination: ChildProcess.Termination?
        var waiters: [UInt64: @Sendable (ChildProcess.Termination?) -> Void] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    init(pid: pid_t, name: String) {
        let thread = Thread { [self] in
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(pid, &status, 0)
            } while result < 0 && errno == EINTR
            finish(result == pid ? .init(waitStatus: status) : .exited(-1))
        }
        thread.name = "hil: wait for \(name) (\(pid))"
        thread.stackSize = 64 * 1024
        thread.start()
    }

    var termination: ChildProcess.Termination? { state.withLock { $0.termination } }

    /// Suspends until the child exits, or `timeout` passes (then nil).
    func wait(timeout: Duration? = nil) async -> ChildProcess.Termination? {
        await withCheckedContinuation { (continuation: CheckedContinuation<ChildProcess.Termination?, Never>) in
            guard let id = register({ continuation.resume(returning: $0) }) else {
                continuation.resume(returning: termination)
                return
            }
            if let timeout {
                DispatchQueue.global().asyncAfter(deadline: Self.deadline(after: timeout)) { self.expire(id) }
            }
        }
    }

    func wait() async -> ChildProcess.Termination {
        // Without a timeout the waiter is only ever resumed with the termination.
        await wait(timeout: nil)!
    }

    /// Blocks the calling thread until the child exits, or `timeout` passes (then nil).
    func waitBlocking(timeout: Duration?) -> ChildProcess.Termination? {
        let semaphore = DispatchSemaphore(value: 0)
        guard let id = register({ _ in semaphore.signal() }) else { return termination }
        if semaphore.wait(timeout: timeout.map(Self.deadline(after:)) ?? .distantFuture) == .timedOut {
            state.withLock { _ = $0.waiters.removeValue(forKey: id) }
        }
        return termination
    }

    /// Adds a waiter; nil when the child already exited (the caller answers at once).
    private func register(_ waiter: @escaping @Sendable (ChildProcess.Termination?) -> Void) -> UInt64? {
        state.withLock { state in
            guard state.termination == nil else { return nil }
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

    private func finish(_ termination: ChildProcess.Termination) {
        let waiters = state.withLock { state in
            state.termination = termination
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter(termination) }
    }

    static func deadline(after duration: Duration) -> DispatchTime {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = max(0, min(Int64(Int32.max), seconds)) * 1_000_000_000 + max(0, attoseconds / 1_000_000_000)
        return .now() + .nanoseconds(Int(nanoseconds))
    }
}
