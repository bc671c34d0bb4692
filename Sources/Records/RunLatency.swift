package import LatencyStats

/// A run's step latencies: all of them, and by step kind with the stages (`latency` in results.json).
package struct RunLatency: Sendable, Equatable {
    package var all: LatencySummary
    /// In the file's order; sorted by kind when recomputed.
    package var byKind: [KindLatency]

    package init(all: LatencySummary, byKind: [KindLatency]) {
        self.all = all
        self.byKind = byKind
    }

    package static let empty = RunLatency(all: .empty, byKind: [])

    package func kind(_ name: String) -> KindLatency? {
        byKind.first { $0.kind == name }
    }

    /// The latencies computed from the samples: every step's `latencyMs` and `stagesMs`, recorded in
    /// HdrHistogram (`LatencyRecorder`, as `hil run` does), grouped by step kind, kinds sorted by name.
    ///
    /// Percentiles of several runs or shards are only ever computed this way, from the union of their samples:
    /// averaging percentiles gives numbers no distribution has.
    ///
    /// - Parameter scenarios: the scenarios whose steps to count, of one file or of several merged.
    /// - Returns: the distributions; a kind has stages when at least one of its steps had `stagesMs`.
    package static func recomputed(from scenarios: [ScenarioResult]) -> RunLatency {
        var all = LatencyRecorder()
        var byKind: [String: LatencyRecorder] = [:]
        var stages: [String: [LatencyStage: LatencyRecorder]] = [:]
        for step in scenarios.lazy.flatMap(\.steps) {
            guard let latency = step.latencyMs else { continue }
            all.record(latency)
            byKind[step.kind, default: LatencyRecorder()].record(latency)
            if let parts = step.stagesMs {
                for (stage, value) in parts {
                    stages[step.kind, default: [:]][stage, default: LatencyRecorder()].record(value)
                }
            }
        }
        let kinds = byKind.keys.sorted().map { kind in
            KindLatency(
                kind: kind, summary: byKind[kind]!.summary,
                stages: (stages[kind] ?? [:]).mapValues(\.summary))
        }
        return RunLatency(all: all.summary, byKind: kinds)
    }
}
