public import ScenarioDriver
import Synchronization

/// Why a run stops taking scenarios before its list is done: it was interrupted (Ctrl-C, SIGTERM, the vm rig's
/// timeout), or the rig broke (`ScenarioResult.rigBroken`: an adapter that will not power on again, after which
/// every later scenario could only error). The first reason stays; the lanes poll `isStopping` between scenarios.
public final class RunStop: Sendable {
    public enum Reason: Sendable, Equatable {
        case interrupted
        case rigBroken(String)
    }

    private let state = Mutex<Reason?>(nil)
    private let interruptedAt = Mutex<ContinuousClock.Instant?>(nil)

    public init() {}

    /// Records an interrupt; true only when nothing had stopped the run before (the caller then stops the
    /// computers and writes the results so far, once).
    public func interrupt() -> Bool {
        interruptedAt.withLock { $0 = $0 ?? .now }
        return state.withLock { reason in
            guard reason == nil else { return false }
            reason = .interrupted
            return true
        }
    }

    /// Runs `work` (the run's scenarios) and waits for it; once the run was interrupted, for at most `grace` more.
    /// The interrupt stops the computers, and a scenario under way then ends within a second as a rule. Not one in a
    /// long wait step, nor one whose phone was still looking for its computer: that waits out its connect timeout
    /// (15 s × the latency scale), which outlived the vm rig's 30 s for an interrupted job. Such a scenario (never
    /// kept) is left behind: returns false then.
    public func run(_ work: @escaping @Sendable () async -> Void, grace: Duration) async -> Bool {
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
    public func note(_ result: ScenarioResult) -> String? {
        guard let broken = result.rigBroken else { return nil }
        return state.withLock { reason in
            guard reason == nil else { return nil }
            reason = .rigBroken(broken)
            return broken
        }
    }

    public var reason: Reason? { state.withLock { $0 } }
    public var isStopping: Bool { reason != nil }
    public var wasInterrupted: Bool { reason == .interrupted }

    /// The rig's failure, when that is what stopped the run.
    public var rigFailure: String? {
        if case .rigBroken(let why) = reason { return why }
        return nil
    }
}
