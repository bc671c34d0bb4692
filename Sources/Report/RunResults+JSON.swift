import LatencyStats
public import StrictJSON

extension RunResults {
    /// The results as a results document (format `hil-results/1`), pretty-printed with a final newline: what
    /// `hil report --merged` writes, readable again by `load(contentsOf:)` and usable as a baseline.
    ///
    /// One environment whose shard is the file's is written as `environment` (as `hil run` does); several, as
    /// `environments`, each with its `shard`.
    public var jsonText: String {
        JSONWriter(pretty: true).string(jsonValue) + "\n"
    }

    public var jsonValue: JSONValue {
        var document = JSONObject([("format", .string(Self.format))])
        if let rig { document.set("rig", .string(rig)) }
        if let startedAt { document.set("startedAt", .string(startedAt)) }
        if let wallMs { document.set("wallMs", .number(wallMs)) }
        if let shard { document.set("shard", shard.json) }
        if environments.count == 1 && environments[0].shard == shard {
            document.set("environment", Self.json(environments[0], withShard: false))
        } else if !environments.isEmpty {
            document.set("environments", .array(environments.map { Self.json($0, withShard: true) }))
        }
        document.set("passed", .number(Double(passed)))
        document.set("failed", .number(Double(failed)))
        document.set("latency", .object(JSONObject([
            ("all", Self.json(latency.all)),
            ("byKind", .object(JSONObject(latency.byKind.map { kind in
                var object = Self.summaryObject(kind.summary)
                if !kind.stages.isEmpty {
                    object.set("stages", .object(JSONObject(LatencyStage.allCases.compactMap { stage in
                        kind.stages[stage].map { (stage.rawValue, Self.json($0)) }
                    })))
                }
                return (kind.kind, .object(object))
            }))),
        ])))
        document.set("scenarios", .array(scenarios.map(Self.json)))
        for entry in additional.entries { document.set(entry.key, entry.value) }
        return .object(document)
    }

    private static func json(_ environment: RunEnvironment, withShard: Bool) -> JSONValue {
        .object(environment.json(withShard: withShard))
    }

    private static func json(_ summary: LatencySummary) -> JSONValue {
        .object(summaryObject(summary))
    }

    private static func summaryObject(_ summary: LatencySummary) -> JSONObject {
        func number(_ value: Double?) -> JSONValue { value.map { .number(($0 * 1000).rounded() / 1000) } ?? .null }
        return JSONObject([
            ("count", .number(Double(summary.count))), ("p50", number(summary.p50)), ("p95", number(summary.p95)),
            ("p99", number(summary.p99)), ("max", number(summary.max)),
        ])
    }

    private static func json(_ scenario: ScenarioRecord) -> JSONValue {
        var object = JSONObject([
            ("file", .string(scenario.file)), ("name", .string(scenario.name)),
            ("requirements", .array(scenario.requirements.map(JSONValue.string))),
            ("outcome", .string(scenario.outcome.rawValue)),
        ])
        if let duration = scenario.durationMs { object.set("durationMs", .number(duration)) }
        if let latency = scenario.latencyMs { object.set("latencyMs", json(latency)) }
        if let message = scenario.message { object.set("message", .string(message)) }
        for entry in scenario.additional.entries { object.set(entry.key, entry.value) }
        object.set("steps", .array(scenario.steps.map(json)))
        return .object(object)
    }

    private static func json(_ step: StepRecord) -> JSONValue {
        var object = JSONObject([
            ("index", .number(Double(step.index))), ("kind", .string(step.kind)),
            ("outcome", .string(step.outcome.rawValue)),
        ])
        if let commands = step.commands { object.set("commands", .number(Double(commands))) }
        if let latency = step.latencyMs { object.set("latencyMs", .number(latency)) }
        if let stages = step.stagesMs {
            object.set("stagesMs", .object(JSONObject(LatencyStage.allCases.compactMap { stage in
                stages[stage].map { (stage.rawValue, JSONValue.number($0)) }
            })))
        }
        if let message = step.message { object.set("message", .string(message)) }
        for entry in step.additional.entries { object.set(entry.key, entry.value) }
        return .object(object)
    }
}
