import LatencyStats
package import StrictJSON

extension RunResults {
    /// The results as a results document (format `hil-results/1`), pretty-printed with a final newline: what
    /// `hil run` and `hil report --merged` write, readable again by `load(contentsOf:)` and usable as a baseline.
    ///
    /// One environment whose shard is the file's is written as `environment` (as `hil run` does); several, as
    /// `environments`, each with its `shard`.
    package var jsonText: String {
        jsonText(everyEnvironmentKey: false)
    }

    /// The results document, pretty-printed with a final newline.
    ///
    /// - Parameter everyEnvironmentKey: write every known key of the environment, `null` where unknown, as
    ///   `hil run` does; a merge writes only the keys it knows.
    /// - Returns: the text of results.json.
    package func jsonText(everyEnvironmentKey: Bool) -> String {
        JSONWriter(pretty: true).string(jsonValue(everyEnvironmentKey: everyEnvironmentKey)) + "\n"
    }

    /// The results document as a JSON value (see `jsonText`).
    package var jsonValue: JSONValue {
        jsonValue(everyEnvironmentKey: false)
    }

    /// Whether the run repeated its scenarios (`hil run --repeat`): then every scenario has `repeat`, and the
    /// document has `stability`.
    package var isRepeated: Bool {
        scenarios.contains { $0.repetition > 1 }
    }

    /// The results document as a JSON value: the keys in the order of docs/results-format.md, times in ms
    /// rounded as the format has them (whole ms for durations, µs for latencies).
    ///
    /// - Parameter everyEnvironmentKey: as for `jsonText(everyEnvironmentKey:)`.
    package func jsonValue(everyEnvironmentKey: Bool) -> JSONValue {
        var document = JSONObject([("format", .string(Self.format))])
        if let rig { document.set("rig", .string(rig)) }
        if let startedAt { document.set("startedAt", .string(startedAt)) }
        if let wallMs { document.set("wallMs", .number(wallMs.rounded())) }
        if let shard { document.set("shard", shard.json) }
        if environments.count == 1 && environments[0].shard == shard {
            document.set("environment", .object(environments[0].json(nullWhenUnknown: everyEnvironmentKey)))
        } else if !environments.isEmpty {
            document.set("environments", .array(environments.map {
                .object($0.json(withShard: true, nullWhenUnknown: everyEnvironmentKey))
            }))
        }
        document.set("passed", .number(Double(passed)))
        document.set("failed", .number(Double(failed)))
        document.set("latency", .object(JSONObject([
            ("all", latency.all.jsonValue),
            ("byKind", .object(JSONObject(latency.byKind.map { kind in
                var object = kind.summary.jsonObject
                if !kind.stages.isEmpty {
                    object.set("stages", .object(JSONObject(LatencyStage.allCases.compactMap { stage in
                        kind.stages[stage].map { (stage.rawValue, $0.jsonValue) }
                    })))
                }
                return (kind.kind, .object(object))
            }))),
        ])))
        if isRepeated {
            document.set("stability", .array(ScenarioStability.of(scenarios).map { entry in
                .object(JSONObject([
                    ("file", .string(entry.file)), ("name", .string(entry.name)),
                    ("outcomes", .array(entry.outcomes.map { .string($0.rawValue) })), ("flaky", .bool(entry.flaky)),
                ]))
            }))
        }
        document.set("scenarios", .array(scenarios.map { Self.json($0, repeated: isRepeated) }))
        for entry in additional.entries { document.set(entry.key, entry.value) }
        return .object(document)
    }

    private static func json(_ scenario: ScenarioResult, repeated: Bool) -> JSONValue {
        var object = JSONObject([
            ("file", .string(scenario.file)), ("name", .string(scenario.name)),
            ("requirements", .array(scenario.requirements.map(JSONValue.string))),
            ("outcome", .string(scenario.outcome.rawValue)),
        ])
        if let duration = scenario.durationMs { object.set("durationMs", .number(duration.rounded())) }
        if let count = scenario.statusNotifications { object.set("statusNotifications", .number(Double(count))) }
        object.set("latencyMs", scenario.latencySummary.jsonValue)
        if repeated { object.set("repeat", .number(Double(scenario.repetition))) }
        if let transport = scenario.transport { object.set("transport", .string(transport)) }
        if let phone = scenario.phone { object.set("phone", .string(phone)) }
        if !scenario.message.isEmpty { object.set("message", .string(scenario.message)) }
        if let phases = scenario.phasesMs {
            object.set("phasesMs", .object(JSONObject(phases.map { ($0.name, .number($0.atMs.rounded())) })))
        }
        if !scenario.captures.isEmpty {
            object.set("captures", .object(JSONObject(scenario.captures.map { ($0.kind, .string($0.path)) })))
        }
        for entry in scenario.additional.entries { object.set(entry.key, entry.value) }
        object.set("steps", .array(scenario.steps.map(json)))
        return .object(object)
    }

    private static func json(_ step: StepResult) -> JSONValue {
        var object = JSONObject([
            ("index", .number(Double(step.index))), ("kind", .string(step.kind)),
            ("outcome", .string(step.outcome.rawValue)),
        ])
        if let commands = step.commands { object.set("commands", .number(Double(commands))) }
        if let latency = step.latencyMs { object.set("latencyMs", .number(LatencySummary.microseconds(latency))) }
        if let stages = step.stagesMs {
            object.set("stagesMs", .object(JSONObject(LatencyStage.allCases.compactMap { stage in
                stages[stage].map { (stage.rawValue, JSONValue.number(LatencySummary.microseconds($0))) }
            })))
        }
        if !step.message.isEmpty { object.set("message", .string(step.message)) }
        if let radio = step.radio { object.set("radio", .string(radio)) }
        for entry in step.additional.entries { object.set(entry.key, entry.value) }
        return .object(object)
    }
}
