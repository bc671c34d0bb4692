public import ScenarioDriver
public import Foundation
import LatencyStats
public import Report
import StrictJSON

/// The results of a run, as files: `results.json` (every step's verdict and latency) and `junit.xml` (one
/// test case per scenario, failures with expected vs actual).
public enum RunReport {
    /// `results.json` in the format of docs/results-format.md; `environment` is the reader's type too (one
    /// definition of the object for `hil run`, `hil report` and merges).
    public static func json(_ results: [ScenarioResult], environment: RunEnvironment, startedAt: Date, wallMs: Double,
                            shard: (index: Int, count: Int)? = nil) -> String
    {
        let scenarios: [JSONValue] = results.map { result in
            var object = JSONObject([
                ("file", .string(result.file)), ("name", .string(result.name)),
                ("requirements", .array(result.requirements.map(JSONValue.string))), ("outcome", .string(result.outcome.rawValue)),
                ("durationMs", .number(round(result.durationMs))),
                ("statusNotifications", .number(Double(result.statusNotifications))),
            ])
            object.set("latencyMs", summary(LatencyRecorder(result.latencies).summary))
            if results.contains(where: { $0.repetition > 1 }) { object.set("repeat", .number(Double(result.repetition))) }
            if !result.message.isEmpty { object.set("message", .string(result.message)) }
            object.set("phasesMs", .object(JSONObject(result.phases.map { ($0.name, .number(round($0.atMs))) })))
            object.set("steps", .array(result.steps.map { step in
                var entry = JSONObject([
                    ("index", .number(Double(step.index))), ("kind", .string(step.kind)), ("outcome", .string(step.outcome.rawValue)),
                    ("commands", .number(Double(step.commands))),
                ])
                if let latency = step.latencyMs { entry.set("latencyMs", .number(rounded(latency))) }
                if let stages = step.stages {
                    entry.set("stagesMs", .object(JSONObject(zip(StageBreakdown.Stages.names, stages.values).map { ($0, .number(rounded($1))) })))
                }
                if !step.message.isEmpty { entry.set("message", .string(step.message)) }
                return .object(entry)
            }))
            return .object(object)
        }
        var document = JSONObject([
            ("format", .string("hil-results/1")),
            ("rig", .string(environment.rig ?? "?")), ("startedAt", .string(ISO8601DateFormatter().string(from: startedAt))),
            ("wallMs", .number(round(wallMs))),
        ])
        if let shard { document.set("shard", RunShard(index: shard.index, count: shard.count).json) }
        document.set("environment", .object(environment.json(nullWhenUnknown: true)))
        document.set("passed", .number(Double(results.filter { $0.outcome == .passed }.count)))
        document.set("failed", .number(Double(results.filter { $0.outcome != .passed }.count)))
        document.set("latency", latency(results))
        let stability = stability(results)
        if results.contains(where: { $0.repetition > 1 }) {
            document.set("stability", .array(stability.map { entry in
                .object(JSONObject([
                    ("file", .string(entry.file)), ("name", .string(entry.name)),
                    ("outcomes", .array(entry.outcomes.map { .string($0.rawValue) })), ("flaky", .bool(entry.flaky)),
                ]))
            }))
        }
        document.set("scenarios", .array(scenarios))
        return JSONWriter(pretty: true).string(.object(document)) + "\n"
    }

    /// Every step latency of the run by step kind, with the stages, as HdrHistogram percentiles.
    static func latency(_ results: [ScenarioResult]) -> JSONValue {
        var all = LatencyRecorder()
        var byKind: [String: LatencyRecorder] = [:]
        var stages: [String: [LatencyRecorder]] = [:]
        for step in results.flatMap(\.steps) {
            guard let latency = step.latencyMs else { continue }
            all.record(latency)
            byKind[step.kind, default: LatencyRecorder()].record(latency)
            if let values = step.stages?.values {
                var recorders = stages[step.kind] ?? Array(repeating: LatencyRecorder(), count: values.count)
                for (index, value) in values.enumerated() { recorders[index].record(value) }
                stages[step.kind] = recorders
            }
        }
        let kinds: [(String, JSONValue)] = byKind.keys.sorted().map { kind in
            guard case .object(var object) = summary(byKind[kind]!.summary) else { return (kind, .null) }
            if let recorders = stages[kind] {
                object.set("stages", .object(JSONObject(zip(StageBreakdown.Stages.names, recorders).map { ($0, summary($1.summary)) })))
            }
            return (kind, .object(object))
        }
        return .object(JSONObject([("all", summary(all.summary)), ("byKind", .object(JSONObject(kinds)))]))
    }

    /// The run's latencies by step kind, with the median of each stage, for the end of `hil run`'s output.
    public static func kindTable(_ results: [ScenarioResult]) -> String {
        var byKind: [String: [StepResult]] = [:]
        for step in results.flatMap(\.steps) where step.latencyMs != nil { byKind[step.kind, default: []].append(step) }
        guard !byKind.isEmpty else { return "no step latencies" }
        func cell(_ value: Double?) -> String { value.map { String(format: "%8.1f", $0) } ?? "       -" }
        var lines = ["step kind          n   p50 ms   p95 ms   p99 ms   max ms   median stages: gesture / link / peripheral / kernel ms"]
        for kind in byKind.keys.sorted() {
            let steps = byKind[kind]!
            let summary = LatencyRecorder(steps.compactMap(\.latencyMs)).summary
            let staged = steps.compactMap(\.stages)
            let stages = staged.isEmpty ? "-" : (0..<4).map { stage in
                String(format: "%.2f", LatencyRecorder(staged.map { $0.values[stage] }).percentile(50) ?? 0)
            }.joined(separator: " / ")
            lines.append("\(kind.padding(toLength: 16, withPad: " ", startingAt: 0)) \(String(format: "%3d", summary.count)) \(cell(summary.p50)) \(cell(summary.p95)) \(cell(summary.p99)) \(cell(summary.max))   \(stages)")
        }
        return lines.joined(separator: "\n")
    }

    static func summary(_ summary: LatencySummary) -> JSONValue {
        .object(JSONObject([
            ("count", .number(Double(summary.count))), ("p50", number(summary.p50)), ("p95", number(summary.p95)),
            ("p99", number(summary.p99)), ("max", number(summary.max)),
        ]))
    }

    private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// One scenario's verdicts over the repeats of a run.
    public struct Stability: Sendable {
        public var file: String
        public var name: String
        public var outcomes: [ScenarioResult.Outcome]
        /// The verdict differed between repeats.
        public var flaky: Bool { Set(outcomes).count > 1 }
        public var passed: Int { outcomes.filter { $0 == .passed }.count }
    }

    /// Verdicts by scenario, in first-run order.
    public static func stability(_ results: [ScenarioResult]) -> [Stability] {
        var order: [String] = []
        var byFile: [String: Stability] = [:]
        for result in results {
            if byFile[result.file] == nil {
                order.append(result.file)
                byFile[result.file] = Stability(file: result.file, name: result.name, outcomes: [])
            }
            byFile[result.file]!.outcomes.append(result.outcome)
        }
        return order.map { byFile[$0]! }
    }

    /// `hil run --repeat`'s table: each scenario's verdicts, flaky ones marked.
    public static func stabilityTable(_ results: [ScenarioResult]) -> String {
        let entries = stability(results)
        let repeats = entries.map(\.outcomes.count).max() ?? 0
        var lines = ["stability over \(repeats) repeats (P passed, F failed, I inconclusive, E error):"]
        for entry in entries {
            let marks = entry.outcomes.map { outcome -> String in
                switch outcome {
                case .passed: "P"
                case .failed: "F"
                case .inconclusive: "I"
                case .error: "E"
                }
            }.joined()
            lines.append("  \(marks.padding(toLength: max(repeats, 6), withPad: " ", startingAt: 0))  \(entry.passed)/\(entry.outcomes.count)  \(entry.flaky ? "FLAKY " : "")\(entry.name)")
        }
        let flaky = entries.filter(\.flaky).count
        lines.append(flaky == 0 ? "identical verdicts in every repeat" : "\(flaky) flaky scenario(s): verdicts differ between repeats")
        return lines.joined(separator: "\n")
    }

    /// JUnit XML. With repeats, one test case per scenario: it fails when any repeat did not pass, and a
    /// scenario whose verdicts differ is marked flaky (a `flaky` property and the verdicts in the message).
    public static func junit(_ results: [ScenarioResult]) -> String {
        if results.contains(where: { $0.repetition > 1 }) { return junitRepeated(results) }
        return junitSingle(results)
    }

    private static func junitRepeated(_ results: [ScenarioResult]) -> String {
        let entries = stability(results)
        let failing = entries.filter { $0.passed < $0.outcomes.count }
        let time = results.reduce(0) { $0 + $1.durationMs } / 1000
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(entries.count)\" failures=\"\(failing.count)\" errors=\"0\" time=\"\(String(format: "%.3f", time))\">\n"
        xml += "  <testsuite name=\"hil run\" tests=\"\(entries.count)\" failures=\"\(failing.count)\" errors=\"0\" time=\"\(String(format: "%.3f", time))\">\n"
        for entry in entries {
            let runs = results.filter { $0.file == entry.file }
            let folder = (entry.file as NSString).deletingLastPathComponent
            let seconds = runs.reduce(0) { $0 + $1.durationMs } / 1000
            xml += "    <testcase classname=\"\(escape(folder))\" name=\"\(escape(entry.name))\" time=\"\(String(format: "%.3f", seconds))\">\n"
            xml += "      <properties><property name=\"flaky\" value=\"\(entry.flaky)\"/><property name=\"verdicts\" value=\"\(entry.outcomes.map(\.rawValue).joined(separator: " "))\"/></properties>\n"
            if entry.passed < entry.outcomes.count {
                let summary = (entry.flaky ? "flaky: " : "") + "passed \(entry.passed) of \(entry.outcomes.count) repeats (\(entry.outcomes.map(\.rawValue).joined(separator: ", ")))"
                let details = runs.filter { $0.outcome != .passed }.map { "repeat \($0.repetition): \($0.outcome.rawValue)\n" + detail($0) }
                    .joined(separator: "\n\n")
                xml += "      <failure message=\"\(escape(summary))\" type=\"\(entry.flaky ? "flaky" : "failed")\">\(escape(summary + "\n" + details))</failure>\n"
            }
            xml += "    </testcase>\n"
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    private static func junitSingle(_ results: [ScenarioResult]) -> String {
        let failures = results.filter { $0.outcome == .failed || $0.outcome == .inconclusive }.count
        let errors = results.filter { $0.outcome == .error }.count
        let time = results.reduce(0) { $0 + $1.durationMs } / 1000
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(String(format: "%.3f", time))\">\n"
        xml += "  <testsuite name=\"hil run\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(String(format: "%.3f", time))\">\n"
        for result in results {
            let folder = (result.file as NSString).deletingLastPathComponent
            xml += "    <testcase classname=\"\(escape(folder))\" name=\"\(escape(result.name))\" time=\"\(String(format: "%.3f", result.durationMs / 1000))\""
            switch result.outcome {
            case .passed:
                xml += "/>\n"
            case .failed, .inconclusive, .error:
                let tag = result.outcome == .error ? "error" : "failure"
                let details = detail(result)
                let first = details.split(separator: "\n").first.map(String.init) ?? result.outcome.rawValue
                xml += ">\n      <\(tag) message=\"\(escape(first))\" type=\"\(result.outcome.rawValue)\">\(escape(details))</\(tag)>\n    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    /// Failed steps with their messages, then scenario-level problems.
    public static func detail(_ result: ScenarioResult) -> String {
        var lines: [String] = []
        for step in result.steps where step.outcome == .failed || step.outcome == .inconclusive {
            lines.append("steps[\(step.index)] (\(step.kind)) \(step.outcome.rawValue):")
            lines.append(contentsOf: step.message.split(separator: "\n").map { "  " + $0 })
        }
        lines.append(contentsOf: result.message.split(separator: "\n").map(String.init))
        return lines.joined(separator: "\n")
    }

    private static func number(_ value: Double?) -> JSONValue {
        value.map { .number(($0 * 1000).rounded() / 1000) } ?? .null
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
