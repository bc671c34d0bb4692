public import Foundation
import StrictJSON

/// The results of a run, as files: `results.json` (every step's verdict and latency) and `junit.xml` (one
/// test case per scenario, failures with expected vs actual).
public enum RunReport {
    public static func json(_ results: [ScenarioResult], rig: String, startedAt: Date) -> String {
        let scenarios: [JSONValue] = results.map { result in
            var object = JSONObject([
                ("file", .string(result.file)), ("name", .string(result.name)),
                ("requirements", .array(result.requirements.map(JSONValue.string))), ("outcome", .string(result.outcome.rawValue)),
                ("durationMs", .number(round(result.durationMs))),
                ("statusNotifications", .number(Double(result.statusNotifications))),
            ])
            object.set("latencyMs", .object(JSONObject([
                ("count", .number(Double(result.latencies.count))),
                ("p50", number(result.latency(percentile: 0.5))), ("p95", number(result.latency(percentile: 0.95))),
                ("max", number(result.latency(percentile: 1))),
            ])))
            if !result.message.isEmpty { object.set("message", .string(result.message)) }
            object.set("phasesMs", .object(JSONObject(result.phases.map { ($0.name, .number(round($0.atMs))) })))
            object.set("steps", .array(result.steps.map { step in
                var entry = JSONObject([
                    ("index", .number(Double(step.index))), ("kind", .string(step.kind)), ("outcome", .string(step.outcome.rawValue)),
                    ("commands", .number(Double(step.commands))),
                ])
                if let latency = step.latencyMs { entry.set("latencyMs", .number((latency * 1000).rounded() / 1000)) }
                if !step.message.isEmpty { entry.set("message", .string(step.message)) }
                return .object(entry)
            }))
            return .object(object)
        }
        let document: JSONValue = .object(JSONObject([
            ("rig", .string(rig)), ("startedAt", .string(ISO8601DateFormatter().string(from: startedAt))),
            ("passed", .number(Double(results.filter { $0.outcome == .passed }.count))),
            ("failed", .number(Double(results.filter { $0.outcome != .passed }.count))),
            ("scenarios", .array(scenarios)),
        ]))
        return JSONWriter(pretty: true).string(document) + "\n"
    }

    public static func junit(_ results: [ScenarioResult]) -> String {
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
