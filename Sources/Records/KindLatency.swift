package import LatencyStats

/// The latency distribution of one step kind (`swipe`, `tap`…), and of each of its stages.
package struct KindLatency: Sendable, Equatable {
    package var kind: String
    package var summary: LatencySummary
    /// Per stage; empty when no step of the kind had `stagesMs`.
    package var stages: [LatencyStage: LatencySummary]

    package init(kind: String, summary: LatencySummary, stages: [LatencyStage: LatencySummary] = [:]) {
        self.kind = kind
        self.summary = summary
        self.stages = stages
    }
}
