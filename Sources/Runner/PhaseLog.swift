import Synchronization
import Records

/// When each phase of a scenario ended, in ms from its start: where a run's wall time goes (`phasesMs` in
/// results.json). The phone's link records its own phases (a Bonjour discovery) from its tasks.
final class PhaseLog: Sendable {
    private let start: ContinuousClock.Instant
    private let recorded = Mutex<[ScenarioResult.Phase]>([])

    init(start: ContinuousClock.Instant) {
        self.start = start
    }

    var phases: [ScenarioResult.Phase] { recorded.withLock { $0 } }

    /// Records that `name` ended now; a phase that happens again (a second discovery after a reconnect) is
    /// `name (2)`, as phases are keys in results.json.
    func record(_ name: String) {
        let at = (ContinuousClock.now - start).milliseconds
        recorded.withLock { phases in
            let taken = Set(phases.map(\.name))
            var unique = name
            var count = 1
            while taken.contains(unique) {
                count += 1
                unique = "\(name) (\(count))"
            }
            phases.append(ScenarioResult.Phase(name: unique, atMs: at))
        }
    }
}
