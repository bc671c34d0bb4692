import LatencyStats
import StrictJSON

/// Reads a results document, collecting every problem with its JSON path instead of stopping at the first.
/// Unknown keys are kept (the format may grow); missing optional keys are fine; `null` means "no value".
struct ResultsReader {
    var problems = JSONProblems()

    typealias Read<T> = (JSONValue, JSONPath) throws(JSONSchemaError) -> T

    /// This hil's other files, by format: what each is and who reads it.
    static let otherFormats = [
        BenchResults.format: "hil bench's bench.json, which no hil command reads (hil bench prints its tables; "
            + "docs/results-format.md, \"bench.json\", gives its keys)",
        SoakResults.format: "hil soak's soak.json, which no hil command reads (hil soak prints each minute; "
            + "docs/results-format.md gives its keys)",
        CalibrationResults.format: "hil calibrate's calibrate.json, which no hil command reads (hil calibrate prints its "
            + "table; docs/results-format.md, \"calibrate.json\", gives its keys)",
    ]

    mutating func results(_ document: JSONValue, source: String) -> RunResults? {
        guard let top = attempt({ () throws(JSONSchemaError) in try document.object(at: .root) }) else { return nil }
        let root = JSONPath.root
        if let format = optional(top, "format", at: root, Self.string), format != RunResults.format {
            if let other = Self.otherFormats[format] {
                // One of this hil's own files, but not a run's: say so, and nothing else about it.
                problems.append(JSONSchemaError(root.appending("format"), "\"\(format)\" is \(other), not a run's results "
                    + "(\(RunResults.format), the results.json hil run writes): hil report reads those only"))
                return nil
            }
            problems.append(JSONSchemaError(
                root.appending("format"),
                "\"\(format)\" is not a format this hil reads (\(RunResults.format)); report it with the hil that wrote it"))
        }
        let shard = top["shard"].flatMap { $0 == .null ? nil : self.shard($0, at: root.appending("shard")) }
        var environments: [RunEnvironment] = []
        if let value = top["environment"], value != .null,
           var environment = environment(value, at: root.appending("environment"))
        {
            if environment.shard == nil { environment.shard = shard }
            environments.append(environment)
        }
        // Merged shards (written by `hil report --merged`): one environment per shard, each with its shard.
        if let list = optional(top, "environments", at: root, Self.array) {
            for (index, value) in list.enumerated() {
                if let environment = environment(value, at: root.appending("environments").appending(index)) {
                    environments.append(environment)
                }
            }
        }
        let passed = required(top, "passed", at: root, Self.count)
        let failed = required(top, "failed", at: root, Self.count)
        let latency = top["latency"].flatMap { $0 == .null ? nil : runLatency($0, at: root.appending("latency")) }
        var scenarios: [ScenarioResult] = []
        if let list = required(top, "scenarios", at: root, Self.array) {
            for (index, value) in list.enumerated() {
                if let scenario = scenario(value, at: root.appending("scenarios").appending(index)) {
                    scenarios.append(scenario)
                }
            }
        }
        // `stability` is derived from the scenarios' repeats: the writer computes it again.
        let known = ["format", "rig", "startedAt", "wallMs", "shard", "environment", "environments", "passed", "failed",
                     "latency", "stability", "scenarios"]
        guard let passed, let failed else { return nil }
        return RunResults(
            sources: [source], rig: optional(top, "rig", at: root, Self.string),
            startedAt: optional(top, "startedAt", at: root, Self.string),
            wallMs: optional(top, "wallMs", at: root, Self.milliseconds), shard: shard, environments: environments,
            passed: passed, failed: failed, latency: latency, scenarios: scenarios,
            additional: Self.unknown(top, known: known))
    }

    // MARK: Parts

    mutating func shard(_ value: JSONValue, at path: JSONPath) -> RunShard? {
        guard let object = attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return nil }
        guard let count = required(object, "count", at: path, { v, p throws(JSONSchemaError) in
                  try v.integer(at: p, in: 1...Int(Int32.max))
              }),
              let index = required(object, "index", at: path, { v, p throws(JSONSchemaError) in
                  try v.integer(at: p, in: 1...Int(Int32.max))
              })
        else { return nil }
        guard index <= count else {
            problems.append(
                JSONSchemaError(path.appending("index"), "shard \(index) of \(count): the index is at most the count"))
            return nil
        }
        return RunShard(index: index, count: count)
    }

    mutating func environment(_ value: JSONValue, at path: JSONPath) -> RunEnvironment? {
        guard let object = attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return nil }
        return RunEnvironment(
            shard: object["shard"].flatMap { $0 == .null ? nil : shard($0, at: path.appending("shard")) },
            kernel: optional(object, "kernel", at: path, Self.string),
            bluez: optional(object, "bluez", at: path, Self.string),
            rig: optional(object, "rig", at: path, Self.string),
            latencyScale: optional(object, "latencyScale", at: path, Self.number),
            peripheralAdapter: optional(object, "peripheralAdapter", at: path, Self.string),
            centralAdapter: optional(object, "centralAdapter", at: path, Self.string),
            host: optional(object, "host", at: path, Self.string),
            writePath: optional(object, "writePath", at: path, Self.string),
            rigUpMs: optional(object, "rigUpMs", at: path, Self.number),
            lanes: optional(object, "lanes", at: path, Self.number).map { Int($0) },
            radio: optional(object, "radio", at: path, Self.string),
            radioModel: optional(object, "radioModel", at: path, Self.string),
            radioIntervalMs: optional(object, "radioIntervalMs", at: path, Self.number),
            radioErrorRate: optional(object, "radioErrorRate", at: path, Self.number),
            build: optional(object, "build", at: path, Self.string),
            commit: optional(object, "commit", at: path, Self.string),
            phone: optional(object, "phone", at: path, Self.string),
            additional: Self.unknown(object, known: RunEnvironment.keys + ["shard"]))
    }

    mutating func runLatency(_ value: JSONValue, at path: JSONPath) -> RunLatency? {
        guard let object = attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return nil }
        let all = object["all"].flatMap { $0 == .null ? nil : summary($0, at: path.appending("all")) }
        var kinds: [KindLatency] = []
        if let byKind = optional(object, "byKind", at: path, Self.object) {
            for (kind, value) in byKind.entries {
                let at = path.appending("byKind").appending(kind)
                guard let summary = summary(value, at: at) else { continue }
                var stages: [LatencyStage: LatencySummary] = [:]
                if case .object(let entry) = value, let stageObject = optional(entry, "stages", at: at, Self.object) {
                    for stage in LatencyStage.allCases {
                        if let stageValue = stageObject[stage.rawValue], stageValue != .null,
                           let stageSummary = self.summary(stageValue, at: at.appending("stages").appending(stage.rawValue))
                        {
                            stages[stage] = stageSummary
                        }
                    }
                }
                kinds.append(KindLatency(kind: kind, summary: summary, stages: stages))
            }
        }
        return RunLatency(all: all ?? .empty, byKind: kinds)
    }

    /// `{ "count": 30, "p50": 9.1, "p95": 15.2, "p99": 17.9, "max": 18.0 }`; percentiles may be null or absent.
    mutating func summary(_ value: JSONValue, at path: JSONPath) -> LatencySummary? {
        guard let object = attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return nil }
        guard let count = required(object, "count", at: path, Self.count) else { return nil }
        return LatencySummary(
            count: count, p50: optional(object, "p50", at: path, Self.milliseconds),
            p95: optional(object, "p95", at: path, Self.milliseconds),
            p99: optional(object, "p99", at: path, Self.milliseconds),
            max: optional(object, "max", at: path, Self.milliseconds))
    }

    mutating func scenario(_ value: JSONValue, at path: JSONPath) -> ScenarioResult? {
        guard let object = attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return nil }
        let file = required(object, "file", at: path, Self.string)
        let name = required(object, "name", at: path, Self.string)
        let outcome = required(object, "outcome", at: path) { v, p throws(JSONSchemaError) in
            try v.enumeration(ScenarioResult.Outcome.self, at: p)
        }
        var requirements: [String] = []
        if let list = optional(object, "requirements", at: path, Self.array) {
            for (index, element) in list.enumerated() {
                let at = path.appending("requirements").appending(index)
                if let text = attempt({ () throws(JSONSchemaError) in try element.string(at: at) }) {
                    requirements.append(text)
                }
            }
        }
        let latency = object["latencyMs"].flatMap { $0 == .null ? nil : summary($0, at: path.appending("latencyMs")) }
        var steps: [StepResult] = []
        if let list = required(object, "steps", at: path, Self.array) {
            for (index, element) in list.enumerated() {
                if let step = step(element, at: path.appending("steps").appending(index)) { steps.append(step) }
            }
        }
        guard let file, let name, let outcome else { return nil }
        var record = ScenarioResult(
            file: file, name: name, requirements: requirements, outcome: outcome, steps: steps,
            message: optional(object, "message", at: path, Self.string) ?? "",
            durationMs: optional(object, "durationMs", at: path, Self.milliseconds), latencyMs: latency,
            statusNotifications: optional(object, "statusNotifications", at: path, Self.count),
            repetition: optional(object, "repeat", at: path) { v, p throws(JSONSchemaError) in
                try v.integer(at: p, in: 1...Int(Int32.max))
            } ?? 1,
            phasesMs: phases(object, at: path),
            transport: optional(object, "transport", at: path, Self.string),
            additional: Self.unknown(
                object, known: ["file", "name", "requirements", "outcome", "durationMs", "statusNotifications",
                                "latencyMs", "repeat", "message", "phasesMs", "transport", "phone", "captures", "steps"]))
        record.captures = captures(object, at: path)
        record.phone = optional(object, "phone", at: path, Self.string)
        return record
    }

    /// `"captures": { "timeline": "003-swipe/timeline.json", "hci": "003-swipe/hci.btsnoop" }`, in the file's order.
    mutating func captures(_ object: JSONObject, at path: JSONPath) -> [ScenarioResult.Capture] {
        guard let captures = optional(object, "captures", at: path, Self.object) else { return [] }
        return captures.entries.compactMap { entry in
            optional(captures, entry.key, at: path.appending("captures"), Self.string)
                .map { ScenarioResult.Capture(kind: entry.key, path: $0) }
        }
    }

    /// `"phasesMs": { "connected": 1130, "steps done": 1700 }`, in the file's order.
    mutating func phases(_ object: JSONObject, at path: JSONPath) -> [ScenarioResult.Phase]? {
        guard let phases = optional(object, "phasesMs", at: path, Self.object) else { return nil }
        return phases.entries.compactMap { entry in
            optional(phases, entry.key, at: path.appending("phasesMs"), Self.milliseconds)
                .map { ScenarioResult.Phase(name: entry.key, atMs: $0) }
        }
    }

    mutating func step(_ value: JSONValue, at path: JSONPath) -> StepResult? {
        guard let object = attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return nil }
        let index = required(object, "index", at: path, Self.count)
        let kind = required(object, "kind", at: path, Self.string)
        let outcome = required(object, "outcome", at: path) { v, p throws(JSONSchemaError) in
            try v.enumeration(StepResult.Outcome.self, at: p)
        }
        let latency = optional(object, "latencyMs", at: path, Self.milliseconds)
        var stages: [LatencyStage: Double]?
        if let stageObject = optional(object, "stagesMs", at: path, Self.object) {
            var parts: [LatencyStage: Double] = [:]
            for stage in LatencyStage.allCases {
                // Negative values are possible by a few µs (the kernel stamps the event during the write).
                if let part = optional(stageObject, stage.rawValue, at: path.appending("stagesMs"), Self.number) {
                    parts[stage] = part
                }
            }
            stages = parts
        }
        guard let index, let kind, let outcome else { return nil }
        var step = StepResult(
            index: index, kind: kind, outcome: outcome, commands: optional(object, "commands", at: path, Self.count),
            latencyMs: latency, stagesMs: stages, message: optional(object, "message", at: path, Self.string) ?? "",
            additional: Self.unknown(
                object, known: ["index", "kind", "outcome", "commands", "latencyMs", "stagesMs", "message", "radio"]))
        step.radio = optional(object, "radio", at: path, Self.string)
        return step
    }

    // MARK: Helpers

    private mutating func attempt<T>(_ read: () throws(JSONSchemaError) -> T) -> T? {
        problems.attempt(read)
    }

    /// The value of `key` read with `read`; nil, with no problem, when the key is absent or `null`.
    private mutating func optional<T>(_ object: JSONObject, _ key: String, at path: JSONPath, _ read: Read<T>) -> T? {
        guard let value = object[key], value != .null else { return nil }
        let at = path.appending(key)
        return problems.attempt { () throws(JSONSchemaError) in try read(value, at) }
    }

    /// The value of `key` read with `read`; a problem when the key is absent.
    private mutating func required<T>(_ object: JSONObject, _ key: String, at path: JSONPath, _ read: Read<T>) -> T? {
        guard let value = object[key] else {
            problems.append(JSONSchemaError(.missingKey, path, "missing required key \"\(key)\""))
            return nil
        }
        let at = path.appending(key)
        return problems.attempt { () throws(JSONSchemaError) in try read(value, at) }
    }

    private static func unknown(_ object: JSONObject, known: [String]) -> JSONObject {
        JSONObject(object.entries.filter { !known.contains($0.key) })
    }

    private static func string(_ value: JSONValue, _ path: JSONPath) throws(JSONSchemaError) -> String {
        try value.string(at: path)
    }

    private static func number(_ value: JSONValue, _ path: JSONPath) throws(JSONSchemaError) -> Double {
        try value.number(at: path)
    }

    /// A time in ms: a number, not negative.
    private static func milliseconds(_ value: JSONValue, _ path: JSONPath) throws(JSONSchemaError) -> Double {
        let number = try value.number(at: path)
        guard number >= 0 else {
            throw JSONSchemaError(
                .outOfRange, path, "expected a time in ms (0 or more), found \(JSONWriter.numberText(number))")
        }
        return number
    }

    private static func count(_ value: JSONValue, _ path: JSONPath) throws(JSONSchemaError) -> Int {
        try value.integer(at: path, in: 0...Int(Int32.max))
    }

    private static func array(_ value: JSONValue, _ path: JSONPath) throws(JSONSchemaError) -> [JSONValue] {
        try value.array(at: path)
    }

    private static func object(_ value: JSONValue, _ path: JSONPath) throws(JSONSchemaError) -> JSONObject {
        try value.object(at: path)
    }
}
