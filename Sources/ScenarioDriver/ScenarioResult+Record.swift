package import Foundation
import LatencyStats
package import Records

/// The driver's results as records: Records owns the file formats (results.json, bench.json, soak.json) and Report renders
/// them (junit.xml, HTML, Markdown); the runner hands them plain values and never builds JSON or XML itself.
extension ScenarioResult {
    /// The scenario as a results.json record: times as measured (Report rounds them when it writes), the
    /// scenario's latency summary over its steps, an empty message as none.
    ///
    /// - Parameter repeated: whether the run repeated its scenarios; then the record carries its repetition.
    package func record(repeated: Bool) -> ScenarioRecord {
        var record = ScenarioRecord(
            file: file, name: name, requirements: requirements,
            outcome: outcome.record, durationMs: durationMs,
            latencyMs: LatencyRecorder(latencies).summary, message: message.isEmpty ? nil : message,
            steps: steps.map(\.record), statusNotifications: statusNotifications,
            repetition: repeated ? repetition : nil,
            phasesMs: phases.map { ScenarioRecord.Phase(name: $0.name, atMs: $0.atMs) }, transport: transport)
        record.captures = captures
        return record
    }

    /// Every result of a run as records; repetitions are kept when any result is from a repeat after the first.
    package static func records(_ results: [ScenarioResult]) -> [ScenarioRecord] {
        let repeated = results.contains { $0.repetition > 1 }
        return results.map { $0.record(repeated: repeated) }
    }
}

extension StepResult {
    /// The step as a results.json record, its stages by name.
    package var record: StepRecord {
        StepRecord(
            index: index, kind: kind, outcome: outcome.record, commands: commands,
            latencyMs: latencyMs,
            stagesMs: stages.map { stages in
                [.gesture: stages.gesture, .link: stages.link, .peripheral: stages.peripheral, .kernel: stages.kernel]
            },
            message: message.isEmpty ? nil : message)
    }
}

extension ScenarioResult.Outcome {
    /// The same verdict in Report's terms (a switch, so a new verdict cannot be forgotten here).
    package var record: ScenarioRecord.Outcome {
        switch self {
        case .passed: .passed
        case .failed: .failed
        case .inconclusive: .inconclusive
        case .error: .error
        case .notApplicable: .notApplicable
        }
    }
}

extension StepResult.Outcome {
    /// The same verdict in Report's terms.
    var record: StepRecord.Outcome {
        switch self {
        case .passed: .passed
        case .failed: .failed
        case .inconclusive: .inconclusive
        case .unchecked: .unchecked
        }
    }
}

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
            shard: shard, environments: [environment], scenarios: ScenarioResult.records(results))
    }
}
