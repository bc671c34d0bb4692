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

    public init() {}

    /// Records an interrupt; true only when nothing had stopped the run before (the caller then stops the
    /// computers and writes the results so far, once).
    public func interrupt() -> Bool {
        state.withLock { reason in
            guard reason == nil else { return false }
            reason = .interrupted
            return true
        }
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
