import ScenarioDriver
import Synchronization

/// When each phase of a scenario ended, in ms from its start: where a run's wall time goes (`phasesMs` in
/// results.json). The phone's link records its own phases (a Bonjour discovery) from its tasks.
final class PhaseLog: Sendable {
    private let start: ContinuousClock.Instant
    private let recorded = Mutex<[ScenarioResult.Phase]>([])

    init(start: ContinuousClock.Instant) {
        self.start = start
    }

    var phases: [ScenarioResult.Phase] { recorded.withLock { $0 } }

    func record(_ name: String) {
        let phase = ScenarioResult.Phase(name: name, atMs: (ContinuousClock.now - start).milliseconds)
        recorded.withLock { $0.append(phase) }
    }
}
