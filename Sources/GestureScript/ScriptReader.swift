import GestureModel
import RemoteTouchProtocol
import StrictJSON

/// Reads a script's JSON, recording every problem with its path and carrying on where it can.
struct ScriptReader {
    private var collected = JSONProblems()
    var problems: [JSONSchemaError] { collected.list }
    /// Extra keys a richer format (scenarios) allows at the top and beside each step's action.
    var extraTopKeys: [String] = []
    /// Keys an extension reads inside one of its top-level objects, by where they go (`run.transports`).
    var nestedKeys: [String: String] = [:]
    var extraStepKeys: [String] = []
    /// The extra keys' values, for the richer format to read: top-level ones by key, step ones by step index.
    private(set) var extraTop: [String: JSONValue] = [:]
    private(set) var extraSteps: [Int: [String: JSONValue]] = [:]

    /// The longest any single step may last; longer is a typo, not a gesture.
    static let maxStepMilliseconds = 600_000.0

    mutating func script(_ value: JSONValue) -> GestureScript? {
        guard let object = collected.attempt({ () throws(JSONSchemaError) in try value.object(at: .root) }) else { return nil }
        // "$schema" points an editor at the JSON Schema (Scenarios/scenario.schema.json); it changes nothing here.
        let topKeys = ["$schema", "name", "description", "requirements", "settings", "steps"] + extraTopKeys
        for key in object.keys where !topKeys.contains(key) {
            if let place = nestedKeys[key] {
                collected.append(JSONSchemaError(.unknownKey, .root.appending(key), "unknown key at the top (did you mean \"\(place)\"? it goes inside \"\(place.split(separator: ".")[0])\")"))
            }
        }
        collected.rejectUnknownKeys(of: JSONObject(object.entries.filter { nestedKeys[$0.key] == nil }), allowed: topKeys, at: .root)
        if let schema = object["$schema"] {
            collected.attempt { () throws(JSONSchemaError) in _ = try schema.string(at: .root.appending("$schema")) }
        }
        for key in extraTopKeys {
            if let value = object[key] { extraTop[key] = value }
        }
        let name = collected.attempt { () throws(JSONSchemaError) in
            try object.required("name", at: .root).string(at: .root.appending("name"))
        }
        let description = collected.attempt { () throws(JSONSchemaError) in
            guard let text = object["description"] else { return "" }
            return try text.string(at: .root.appending("description"))
        }
        var requirements: [String] = []
        if let list = object["requirements"] {
            let path = JSONPath.root.appending("requirements")
            if let elements = collected.attempt({ () throws(JSONSchemaError) in try list.array(at: path) }) {
                for (index, element) in elements.enumerated() {
                    if let id = collected.attempt({ () throws(JSONSchemaError) in try element.string(at: path.appending(index)) }) {
                        requirements.append(id)
                    }
                }
            }
        }
        let settings = object["settings"].map { self.settings($0, at: .root.appending("settings")) } ?? GestureSettings()
        var steps: [ScriptStep] = []
        var stepIndices: [Int] = []
        if let stepsValue = collected.attempt({ () throws(JSONSchemaError) in try object.required("steps", at: .root) }) {
            let path = JSONPath.root.appending("steps")
            if let elements = collected.attempt({ () throws(JSONSchemaError) in try stepsValue.array(at: path) }) {
                if elements.isEmpty { collected.append(JSONSchemaError(path, "a script needs at least one step")) }
                for (index, element) in elements.enumerated() {
                    var action = element
                    if case .object(let object) = element, !extraStepKeys.isEmpty {
                        let stepKeys = extraStepKeys
                        // Set the extra keys aside; what remains must be exactly one action.
                        var rest = JSONObject()
                        for entry in object.entries {
                            if stepKeys.contains(entry.key) {
                                extraSteps[index, default: [:]][entry.key] = entry.value
                            } else {
                                rest.set(entry.key, entry.value)
                            }
                        }
                        action = .object(rest)
                    }
                    if let step = collected.attempt({ () throws(JSONSchemaError) in try Self.step(action, at: path.appending(index), besides: extraStepKeys) }) {
                        steps.append(step)
                        stepIndices.append(index)
                    }
                }
                checkHeldFingers(steps, indices: stepIndices, at: path)
            }
        }
        guard let name, let description else { return nil }
        return GestureScript(
            name: name, description: description, requirements: requirements, settings: settings, steps: steps)
    }

    /// A `touches` step may end with fingers down (a touch held across steps, for a link fault in the middle of
    /// a drag); then only steps that do not touch the screen may follow until a later `touches` step lifts them,
    /// and the script must not end with a finger down.
    private mutating func checkHeldFingers(_ steps: [ScriptStep], indices: [Int], at path: JSONPath) {
        var heldSince: Int?
        for (step, index) in zip(steps, indices) {
            if case .touches(let samples) = step {
                heldSince = samples.last?.points.isEmpty == false ? index : nil
            } else if let since = heldSince, step.touchesTheScreen {
                collected.append(JSONSchemaError(
                    path.appending(index).appending(step.name),
                    "fingers are still down from steps[\(since)] (its last sample has points); lift them with a touches step before a \(step.name)"))
            }
        }
        if let since = heldSince {
            collected.append(JSONSchemaError(
                path.appending(since).appending("touches"),
                "the script ends with fingers down: the last sample of this or a later touches step must lift every finger (points: [])"))
        }
    }

    private mutating func settings(_ value: JSONValue, at path: JSONPath) -> GestureSettings {
        var settings = GestureSettings()
        guard let object = collected.attempt({ () throws(JSONSchemaError) in try value.object(at: path) }) else { return settings }
        let timers: [(key: String, apply: (inout GestureSettings, Duration) -> Void)] = [
            ("doubleTapIntervalMs", { $0.doubleTapInterval = $1 }),
            ("longPressMs", { $0.longPressDuration = $1 }),
            ("sendIntervalMs", { $0.sendInterval = $1 }),
            ("idleTimeoutMs", { $0.idleTimeout = $1 }),
            ("idleSendIntervalMs", { $0.idleSendInterval = $1 }),
        ]
        collected.rejectUnknownKeys(of: object, allowed: ["mode", "sensitivity", "scrollSensitivity", "acceleration"] + timers.map(\.key), at: path)
        if let mode = object["mode"] {
            if let value = collected.attempt({ () throws(JSONSchemaError) in
                try mode.enumeration(ControlMode.self, at: path.appending("mode"))
            }) { settings.mode = value }
        }
        for key in ["sensitivity", "scrollSensitivity"] {
            guard let number = object[key] else { continue }
            let at = path.appending(key)
            guard let raw = collected.attempt({ () throws(JSONSchemaError) in try number.number(at: at) }) else { continue }
            do {
                let sensitivity = try Sensitivity(raw)
                if key == "sensitivity" { settings.sensitivity = sensitivity } else { settings.scrollSensitivity = sensitivity }
            } catch {
                collected.append(JSONSchemaError(at, error.message))
            }
        }
        if let curve = object["acceleration"] {
            if let value = collected.attempt({ () throws(JSONSchemaError) in
                try curve.enumeration(AccelerationCurve.self, at: path.appending("acceleration"))
            }) { settings.acceleration = value }
        }
        for timer in timers {
            guard let number = object[timer.key] else { continue }
            if let duration = collected.attempt({ () throws(JSONSchemaError) in
                try Self.milliseconds(number, at: path.appending(timer.key), positive: true)
            }) { timer.apply(&settings, duration) }
        }
        return settings
    }

    /// `[{"atMs": 0, "points": [[100, 200]]}, …, {"atMs": 80, "points": []}]`: times from the step's start,
    /// not decreasing; a finger keeps its id by its index in `points`. The last sample may leave fingers down
    /// for a later `touches` step to lift (checked over the whole script).
    static func samples(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> [TouchSample] {
        let elements = try value.array(at: path)
        guard !elements.isEmpty else { throw JSONSchemaError(path, "a touch trace needs at least one sample") }
        var samples: [TouchSample] = []
        for (index, element) in elements.enumerated() {
            let at = path.appending(index)
            let object = try element.object(at: at)
            try object.rejectUnknownKeys(allowed: ["atMs", "points"], at: at)
            let time = try milliseconds(try object.required("atMs", at: at), at: at.appending("atMs"), positive: false)
            if let previous = samples.last, time < previous.at {
                throw JSONSchemaError(at.appending("atMs"), "samples must not go back in time")
            }
            let pointsPath = at.appending("points")
            let points = try object.required("points", at: at).array(at: pointsPath)
            guard points.count <= 5 else { throw JSONSchemaError(pointsPath, "at most 5 fingers") }
            var touches: [TouchPoint] = []
            for (finger, point) in points.enumerated() {
                touches.append(TouchPoint(id: finger, location: try Point(json: point, at: pointsPath.appending(finger))))
            }
            samples.append(TouchSample(at: time, points: touches))
        }
        return samples
    }

    static func milliseconds(_ value: JSONValue, at path: JSONPath, positive: Bool) throws(JSONSchemaError) -> Duration {
        let number = try value.number(at: path)
        guard number >= 0, number <= maxStepMilliseconds, !positive || number > 0 else {
            throw JSONSchemaError(
                path, "\(JSONWriter.numberText(number)) ms is outside \(positive ? "(0" : "[0")...\(Int(maxStepMilliseconds))]")
        }
        return .microseconds(Int64((number * 1000).rounded()))
    }

    /// Records a problem found by a richer format's own checks.
    mutating func add(_ problem: JSONSchemaError) {
        collected.append(problem)
    }

}
