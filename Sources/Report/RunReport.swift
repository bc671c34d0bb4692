package import Foundation
import LatencyStats
package import Records

/// The results of a run, as files and as console text. The files' formats are Report's: `results.json`
/// (`RunResults.jsonText`) and `junit.xml` (`RunResults.junitXML`), from `RunResults(run:…)`.
package enum RunReport {
    /// `results.json` in the format of docs/results-format.md, written by Report: every environment key, `null`
    /// where unknown.
    package static func json(_ results: [ScenarioResult], environment: RunEnvironment, startedAt: Date, wallMs: Double,
                            shard: (index: Int, count: Int)? = nil) -> String
    {
        RunResults(run: results, environment: environment, startedAt: startedAt, wallMs: wallMs, shard: shard)
            .jsonText(everyEnvironmentKey: true)
    }

    /// JUnit XML, written by Report (`RunResults.junitXML`): one test case per scenario, flaky ones marked; the
    /// environment's phone as the suite's property.
    package static func junit(_ results: [ScenarioResult], environment: RunEnvironment = RunEnvironment()) -> String {
        RunResults(environments: [environment], scenarios: results).junitXML
    }

    /// Failed steps with their messages, then scenario-level problems (`ScenarioResult.detail`).
    package static func detail(_ result: ScenarioResult) -> String {
        result.detail
    }

    /// The run's latencies by step kind, with the median of each stage, for the end of `hil run`'s output.
    package static func kindTable(_ results: [ScenarioResult]) -> String {
        var byKind: [String: [StepResult]] = [:]
        for step in results.flatMap(\.steps) where step.latencyMs != nil { byKind[step.kind, default: []].append(step) }
        guard !byKind.isEmpty else { return "no step latencies" }
        func cell(_ value: Double?) -> String { value.map { String(format: "%8.1f", $0) } ?? "       -" }
        var lines = [
            "step kind          n   p50 ms   p95 ms   p99 ms   max ms   "
                + "median stages: gesture / link / peripheral / kernel ms",
        ]
        for kind in byKind.keys.sorted() {
            let steps = byKind[kind]!
            let summary = LatencyRecorder(steps.compactMap(\.latencyMs)).summary
            let staged = steps.compactMap(\.stagesMs)
            let stages = staged.isEmpty ? "-" : LatencyStage.allCases.map { stage in
                String(format: "%.2f", LatencyRecorder(staged.map { $0[stage] ?? 0 }).percentile(50) ?? 0)
            }.joined(separator: " / ")
            let cells = [summary.p50, summary.p95, summary.p99, summary.max].map(cell).joined(separator: " ")
            lines.append(
                "\(kind.padding(toLength: 16, withPad: " ", startingAt: 0)) \(String(format: "%3d", summary.count)) "
                    + "\(cells)   \(stages)")
        }
        return lines.joined(separator: "\n")
    }

    /// Step latency per transport, when the run used more than one: `tcp  n 40  p50 6.1  p95 180.2 …`.
    package static func transportTable(_ results: [ScenarioResult]) -> String? {
        let entries = TransportLatency.of(results)
        guard entries.count > 1 else { return nil }
        var lines = ["transport      n   p50 ms   p95 ms   p99 ms   max ms  link p50   the product's claim"]
        for entry in entries {
            let cells = [entry.summary.p50, entry.summary.p95, entry.summary.p99, entry.summary.max, entry.link?.p50]
                .map { $0.map { String(format: "%8.1f", $0) } ?? "       -" }
            lines.append(entry.transport.padding(toLength: 10, withPad: " ", startingAt: 0) + String(format: "%5d", entry.summary.count) + " "
                + cells.joined(separator: " ") + "   " + (TransportLatency.claim(entry.transport) ?? "-"))
        }
        return lines.joined(separator: "\n")
    }

    /// `hil run --repeat`'s table: each scenario's verdicts, flaky ones marked.
    package static func stabilityTable(_ results: [ScenarioResult]) -> String {
        let entries = ScenarioStability.of(results)
        let repeats = entries.map(\.outcomes.count).max() ?? 0
        var lines = ["stability over \(repeats) repeats (P passed, F failed, I inconclusive, E error, N not applicable):"]
        for entry in entries {
            let marks = entry.outcomes.map { outcome -> String in
                switch outcome {
                case .passed: "P"
                case .failed: "F"
                case .inconclusive: "I"
                case .error: "E"
                case .notApplicable: "N"
                }
            }.joined()
            let padded = marks.padding(toLength: max(repeats, 6), withPad: " ", startingAt: 0)
            lines.append("  \(padded)  \(entry.passed)/\(entry.outcomes.count)  \(entry.flaky ? "FLAKY " : "")\(entry.name)")
        }
        let flaky = entries.filter(\.flaky).count
        lines.append(
            flaky == 0 ? "identical verdicts in every repeat" : "\(flaky) flaky scenario(s): verdicts differ between repeats")
        return lines.joined(separator: "\n")
    }
}
