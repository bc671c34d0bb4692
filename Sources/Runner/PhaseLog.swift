import ScenarioDriver

/// When each phase of a scenario ended, in ms from its start: where a run's wall time goes (`phasesMs` in
/// results.json).
final class PhaseLog {
    private let start: ContinuousClock.Instant
    private(set) var phases: [ScenarioResult.Phase] = []

    init(start: ContinuousClock.Instant) {
        self.start = start
    }

    func record(_ name: String) {
        phases.append(.init(name: name, atMs: (ContinuousClock.now - start).milliseconds))
    }
}
