import GestureModel
import RemoteTouchProtocol
import StrictJSON

/// Reads a script's JSON, recording every problem with its path and carrying on where it can.
struct ScriptReader {
    private var collected = JSONProblems()
    var problems: [JSONSchemaError] { collected.list }
    /// Extra keys a richer format (scenarios) allows at the top and beside each step's action.
    var extraTopKeys: [String] = []
    var extraStepKeys: [String] = []
    /// The extra keys' values, for the richer format to read: top-level ones by key, step ones by step index.
    private(set) var extraTop: [String: JSONValue] = [:]
    private(set) var extraSteps: [Int: [String: JSONValue]] = [:]

    /// The longest any single step may last; longer is a typo, not a gesture.
    static let maxStepMilliseconds = 600_000.0

    mutating func script(_ value: JSONValue) -> GestureScript? {
        guard let object = collected.attempt({ () throws(JSONSchemaError) in try value.object(at: .root) }) else { return nil }
        let topKeys = ["name", "description", "requirements", "settings", "steps"] + extraTopKeys
        collected.attempt { () throws(JSONSchemaError) in try object.rejectUnknownKeys(allowed: topKeys, at: .root) }
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
                    if let step = collected.attempt({ () throws(JSONSchemaError) in try Self.step(action, at: path.appending(index)) }) {
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
        collected.attempt { () throws(JSONSchemaError) in
            try object.rejectUnknownKeys(
                allowed: ["mode", "sensitivity", "scrollSensitivity", "acceleration"] + timers.map(\.key), at: path)
        }
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

    static func step(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> ScriptStep {
        let object = try value.object(at: path)
        guard object.count == 1, let (name, body) = object.entries.first else {
            throw JSONSchemaError(
                path, "a step is an object with exactly one key, the step kind (one of \(ScriptStep.names.joined(separator: ", "))); found \(object.count) keys")
        }
        let at = path.appending(name)
        switch name {
        case "button":
            return .button(try body.enumeration(ButtonAction.self, at: at))
        case "mode":
            return .mode(try body.enumeration(ControlMode.self, at: at))
        case "touches":
            return .touches(try samples(body, at: at))
        case "text":
            let string = try body.string(at: at)
            guard !string.isEmpty else { throw JSONSchemaError(at, "text must not be empty") }
            return .text(string)
        case "key":
            // Same shape as the keyPress command's payload: {"key": "c", "modifiers": ["command"]}.
            guard case .keyPress(let key, let modifiers) = try Command.keyPress(payload: body, at: at) else {
                preconditionFailure("a keyPress payload decoded to another command")
            }
            return .key(key, modifiers: modifiers)
        case _ where !ScriptStep.names.contains(name):
            throw JSONSchemaError(at, "unknown step; expected one of \(ScriptStep.names.joined(separator: ", "))")
        default:
            break
        }
        let fields = try body.object(at: at)
        func optional<T>(_ key: String, _ default: T, _ read: (JSONValue, JSONPath) throws(JSONSchemaError) -> T)
            throws(JSONSchemaError) -> T
        {
            guard let value = fields[key] else { return `default` }
            return try read(value, at.appending(key))
        }
        func required<T>(_ key: String, _ read: (JSONValue, JSONPath) throws(JSONSchemaError) -> T)
            throws(JSONSchemaError) -> T
        {
            try read(try fields.required(key, at: at), at.appending(key))
        }
        let point: (JSONValue, JSONPath) throws(JSONSchemaError) -> Point = { value, path throws(JSONSchemaError) in
            try Point(json: value, at: path)
        }
        let ms: (JSONValue, JSONPath) throws(JSONSchemaError) -> Duration = { value, path throws(JSONSchemaError) in
            try milliseconds(value, at: path, positive: false)
        }
        switch name {
        case "swipe":
            try fields.rejectUnknownKeys(allowed: ["from", "to", "durationMs", "fingers"], at: at)
            let fingers = try optional("fingers", 1) { value, path throws(JSONSchemaError) in
                try value.integer(at: path, in: 1...3)
            }
            return .swipe(
                from: try optional("from", ScriptStep.defaultPoint, point), to: try required("to", point),
                duration: try required("durationMs", ms), fingers: fingers)
        case "tap":
            try fields.rejectUnknownKeys(allowed: ["at", "durationMs"], at: at)
            return .tap(at: try optional("at", ScriptStep.defaultPoint, point),
                        duration: try optional("durationMs", .milliseconds(60), ms))
        case "doubleTap":
            try fields.rejectUnknownKeys(allowed: ["at", "gapMs"], at: at)
            return .doubleTap(at: try optional("at", ScriptStep.defaultPoint, point),
                              gap: try optional("gapMs", .milliseconds(120), ms))
        case "longPress":
            try fields.rejectUnknownKeys(allowed: ["at", "durationMs"], at: at)
            return .longPress(at: try optional("at", ScriptStep.defaultPoint, point),
                              duration: try optional("durationMs", .milliseconds(800), ms))
        case "drag":
            try fields.rejectUnknownKeys(allowed: ["at", "holdMs", "by", "durationMs"], at: at)
            return .drag(
                at: try optional("at", ScriptStep.defaultPoint, point), hold: try optional("holdMs", .milliseconds(600), ms),
                by: try required("by", point), duration: try optional("durationMs", .milliseconds(300), ms))
        case "twoFingerTap":
            try fields.rejectUnknownKeys(allowed: ["at"], at: at)
            return .twoFingerTap(at: try optional("at", ScriptStep.defaultPoint, point))
        case "scroll":
            try fields.rejectUnknownKeys(allowed: ["by", "durationMs"], at: at)
            return .scroll(by: try required("by", point), duration: try optional("durationMs", .milliseconds(250), ms))
        case "pinch":
            try fields.rejectUnknownKeys(allowed: ["scale", "durationMs"], at: at)
            let scale = try required("scale") { value, path throws(JSONSchemaError) in
                let scale = try value.number(at: path)
                guard scale >= 0.2 && scale <= 5 else { throw JSONSchemaError(path, "pinch scale \(scale) is outside 0.2...5") }
                return scale
            }
            return .pinch(scale: scale, duration: try optional("durationMs", .milliseconds(300), ms))
        case "threeFingerSwipe":
            try fields.rejectUnknownKeys(allowed: ["direction", "distance", "durationMs"], at: at)
            let distance = try optional("distance", 120.0) { value, path throws(JSONSchemaError) in
                try value.number(at: path, magnitude: 2000)
            }
            return .threeFingerSwipe(
                direction: try required("direction") { value, path throws(JSONSchemaError) in
                    try value.enumeration(SwipeDirection.self, at: path)
                },
                distance: distance, duration: try optional("durationMs", .milliseconds(250), ms))
        case "linkDrop":
            try fields.rejectUnknownKeys(allowed: ["forMs", "adapter"], at: at)
            return .linkDrop(try required("forMs", ms), side: try optional("adapter", .computer) { value, path throws(JSONSchemaError) in
                try value.enumeration(LinkSide.self, at: path)
            })
        case "disconnect":
            try fields.rejectUnknownKeys(allowed: [], at: at)
            return .disconnect
        case "restartBluetoothd":
            try fields.rejectUnknownKeys(allowed: [], at: at)
            return .restartBluetoothd
        case "restartPeripheral":
            try fields.rejectUnknownKeys(allowed: [], at: at)
            return .restartPeripheral
        case "malformedWrites":
            try fields.rejectUnknownKeys(allowed: ["count"], at: at)
            return .malformedWrites(count: try required("count") { value, path throws(JSONSchemaError) in
                try value.integer(at: path, in: 1...100_000)
            })
        case "pair":
            try fields.rejectUnknownKeys(allowed: ["code"], at: at)
            return .pair(try required("code") { value, path throws(JSONSchemaError) in
                let text = try value.string(at: path)
                switch text {
                case "shown": return .shown
                case "wrong": return .wrong
                case _ where text.utf8.count == 6 && text.utf8.allSatisfy({ (0x30...0x39).contains($0) }): return .digits(text)
                default: throw JSONSchemaError(path, "expected \"shown\", \"wrong\" or 6 digits, found \(text.debugDescription)")
                }
            })
        case "reconnect":
            try fields.rejectUnknownKeys(allowed: ["timeoutMs"], at: at)
            return .reconnect(timeout: try optional("timeoutMs", .seconds(10)) { value, path throws(JSONSchemaError) in
                try milliseconds(value, at: path, positive: true)
            })
        default:  // "wait"
            try fields.rejectUnknownKeys(allowed: ["ms"], at: at)
            return .wait(try required("ms", ms))
        }
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
