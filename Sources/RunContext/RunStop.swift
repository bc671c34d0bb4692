package import Processes
import Glibc
import Synchronization
package import Records
import Waiting

/// Why a run stops taking scenarios before its list is done: it was interrupted (Ctrl-C, SIGTERM, the vm rig's
/// timeout), or the rig broke (`ScenarioResult.rigBroken`: an adapter that will not power on again, after which
/// every later scenario could only error). The first reason stays; the lanes poll `isStopping` between scenarios,
/// and an interrupt cancels the scenarios under way (`cancellable`): their waits end at once.
package final class RunStop: Sendable {
    package enum Reason: Sendable, Equatable {
        case interrupted
        case rigBroken(String)
        /// `hil run --max-failures N`: N scenarios did not pass.
        case enoughFailures(Int)
    }

    private let state = Mutex<Reason?>(nil)
    private let failures = Mutex(0)
    private let interruptedAt = Mutex<ContinuousClock.Instant?>(nil)
    /// The computers under test this run started (`PeripheralUnderTest.Launch.roster`): its interrupt stops them, and
    /// no other run's.
    package let computers = ChildRoster()
    /// The scenario work under way that an interrupt cancels, by registration.
    private let underWay = Mutex<(next: Int, cancels: [Int: @Sendable () -> Void])>((0, [:]))

    package init() {}

    /// Records an interrupt and, the first time, interrupts this run's computers (`computers`); true only when
    /// nothing had stopped the run before (the caller then writes the results so far, once).
    package func interrupt() -> Bool {
        interruptedAt.withLock { $0 = $0 ?? .now }
        let first = state.withLock { reason in
            guard reason == nil else { return false }
            reason = .interrupted
            return true
        }
        if first { computers.signalAll(SIGINT) }
        for cancel in underWay.withLock({ Array($0.cancels.values) }) { cancel() }
        return first
    }

    /// Runs `work` (a scenario's setup and steps) in a task of its own that an interrupt cancels, now or later:
    /// a wait step, a connect or a scan then ends at once with a cancellation error. What `work` set up is the
    /// caller's to tear down, outside it and not cancelled.
    package func cancellable<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        if interruptSeen { throw CancellationError() }
        let task = Task { try await work() }
        let id = onInterrupt { task.cancel() }
        defer { _ = underWay.withLock { $0.cancels.removeValue(forKey: id) } }
        // `interrupt` marks the interrupt before it cancels what is registered: an interrupt since the check above
        // is seen here, or sees this task.
        if interruptSeen { task.cancel() }
        return try await task.value
    }

    /// Runs `work` (the run's scenarios) and waits for it; once the run was interrupted, for at most `grace` more.
    /// The interrupt stops the computers and cancels the scenarios under way (`cancellable`): a wait, a scan or a
    /// poll ends at once, and the scenario is torn down within a second or two. A D-Bus call is not cut short (a
    /// `Connect` ends when BlueZ answers it), and a teardown can hang: a scenario still under way after `grace` is
    /// left behind (never kept), and this returns false.
    package func run(_ work: @escaping @Sendable () async -> Void, grace: Duration) async -> Bool {
        let ending = Ending()
        // The interrupt (now or later) starts the grace; the work's end, the grace's end or this task's cancellation
        // ends the wait, whichever comes first.
        let id = onInterrupt { ending.startGrace(grace) }
        defer {
            _ = underWay.withLock { $0.cancels.removeValue(forKey: id) }
            ending.callOffGrace()
        }
        if interruptSeen { ending.startGrace(grace) }
        Task {
            await work()
            ending.finish(true)
        }
        return await withTaskCancellationHandler {
            await ending.result()
        } onCancel: {
            ending.finish(false)
        }
    }

    /// Registers what an interrupt does to work under way; returns its key in `underWay`.
    private func onInterrupt(_ action: @escaping @Sendable () -> Void) -> Int {
        underWay.withLock { state in
            defer { state.next += 1 }
            state.cancels[state.next] = action
            return state.next
        }
    }

    /// How `run`'s wait ends: the first of the work's end (true) and the grace's (false); its grace timer.
    private final class Ending: Sendable {
        private let state = Mutex<(result: Bool?, waiter: CheckedContinuation<Bool, Never>?, grace: Task<Void, Never>?)>((nil, nil, nil))

        func finish(_ result: Bool) {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard state.result == nil else { return nil }
                state.result = result
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: result)
        }

        /// Starts the grace timer, once.
        func startGrace(_ grace: Duration) {
            state.withLock { state in
                guard state.grace == nil, state.result == nil else { return }
                state.grace = Pace.after(grace) { [self] in finish(false) }
            }
        }

        func callOffGrace() { state.withLock { $0.grace }?.cancel() }

        func result() async -> Bool {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool? in
                    if state.result == nil { state.waiter = continuation }
                    return state.result
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    /// Looks at a finished scenario: when it broke the rig, the run stops there. Returns the reason when this
    /// result is the one that stopped it, so the caller says it once.
    package func note(_ result: ScenarioResult) -> String? {
        guard let broken = result.rigBroken else { return nil }
        return state.withLock { reason in
            guard reason == nil else { return nil }
            reason = .rigBroken(broken)
            return broken
        }
    }

    /// Counts a finished scenario that did not pass against `limit` (`hil run --max-failures`): the run stops once
    /// that many did not. True when this result is the one that stopped it.
    package func noteFailure(_ result: ScenarioResult, limit: Int?) -> Bool {
        guard let limit, result.outcome.isFailure else { return false }
        let count = failures.withLock { count in
            count += 1
            return count
        }
        guard count >= limit else { return false }
        return state.withLock { reason in
            guard reason == nil else { return false }
            reason = .enoughFailures(limit)
            return true
        }
    }

    package var reason: Reason? { state.withLock { $0 } }
    /// Interrupted, even after the rig broke (then not the reason): the work under way is cancelled all the same.
    private var interruptSeen: Bool { interruptedAt.withLock { $0 } != nil }
    package var isStopping: Bool { reason != nil }
    package var wasInterrupted: Bool { reason == .interrupted }

    /// The rig's failure, when that is what stopped the run.
    package var rigFailure: String? {
        if case .rigBroken(let why) = reason { return why }
        return nil
    }
}
