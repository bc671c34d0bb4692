public import LatencyStats

/// The latency distribution of one step kind (`swipe`, `tap`…), and of each of its stages.
public struct KindLatency: Sendable, Equatable {
    public var kind: String
    public var summary: LatencySummary
    /// Per stage; empty when no step of the kind had `stagesMs`.
    public var stages: [LatencyStage: LatencySummary]

    public init(kind: String, summary: LatencySummary, stages: [LatencyStage: LatencySummary] = [:]) {
        self.kind = kind
        self.summary = summary
        self.stages = stages
    }
}
