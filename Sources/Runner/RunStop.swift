package import ScenarioDriver
import Synchronization
package import Records

/// Why a run stops taking scenarios before its list is done: it was interrupted (Ctrl-C, SIGTERM, the vm rig's
/// timeout), or the rig broke (`ScenarioResult.rigBroken`: an adapter that will not power on again, after which
/// every later scenario could only error). The first reason stays; the lanes poll `isStopping` between scenarios,
/// and an interrupt cancels the scenarios under way (`cancellable`): their waits end at once.
package final class RunStop: Sendable {
    package enum Reason: Sendable, Equatable {
        case interrupted
        case rigBroken(String)
    }

    private let state = Mutex<Reason?>(nil)
    private let interruptedAt = Mutex<ContinuousClock.Instant?>(nil)
    /// The scenario work under way that an interrupt cancels, by registration.
    private let underWay = Mutex<(next: Int, cancels: [Int: @Sendable () -> Void])>((0, [:]))

    package init() {}

    /// Records an interrupt; true only when nothing had stopped the run before (the caller then stops the
    /// computers and writes the results so far, once).
    package func interrupt() -> Bool {
        interruptedAt.withLock { $0 = $0 ?? .now }
        let first = state.withLock { reason in
            guard reason == nil else { return false }
            reason = .interrupted
            return true
        }
        for cancel in underWay.withLock({ Array($0.cancels.values) }) { cancel() }
        return first
    }

    /// Runs `work` (a scenario's setup and steps) in a task of its own that an interrupt cancels, now or later:
    /// a wait step, a connect or a scan then ends at once with a cancellation error. What `work` set up is the
    /// caller's to tear down, outside it and not cancelled.
    package func cancellable<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        if interruptSeen { throw CancellationError() }
        let task = Task { try await work() }
        let id = underWay.withLock { state in
            defer { state.next += 1 }
            state.cancels[state.next] = { task.cancel() }
            return state.next
        }
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
        let done = Flag()
        Task {
            await work()
            done.set()
        }
        while !done.isSet {
            if let at = interruptedAt.withLock({ $0 }), ContinuousClock.now - at > grace { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    private final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
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
