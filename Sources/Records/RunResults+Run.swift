package import Foundation

extension RunResults {
    /// One run of `hil run` (or one shard of it) as results, ready for `jsonText(everyEnvironmentKey: true)`
    /// and `junitXML`.
    ///
    /// - Parameters:
    ///   - results: every scenario result, repeats included, in run order.
    ///   - environment: where the run ran; its `rig` names the run (`?` when unknown).
    ///   - startedAt: when the run started, written in ISO 8601.
    ///   - wallMs: the run's wall time.
    ///   - shard: the slice of the suite this run ran, if sharded.
    package init(run results: [ScenarioResult], environment: RunEnvironment, startedAt: Date, wallMs: Double,
                shard: (index: Int, count: Int)? = nil)
    {
        let shard = shard.map { RunShard(index: $0.index, count: $0.count) }
        var environment = environment
        environment.shard = shard
        self.init(
            rig: environment.rig ?? "?", startedAt: ISO8601DateFormatter().string(from: startedAt), wallMs: wallMs,
            shard: shard, environments: [environment], scenarios: results)
    }
}
