import Radio
import RemoteTouchProtocol
import StrictJSON

extension ScriptReader {
    /// One step: an object with exactly one key, the step kind. `besides` are the keys a richer format set aside
    /// (a scenario's `expect`), named in the did-you-mean of a key that is neither.
    static func step(_ value: JSONValue, at path: JSONPath, besides: [String] = []) throws(JSONSchemaError) -> ScriptStep {
        let object = try value.object(at: path)
        guard object.count == 1, let (name, body) = object.entries.first else {
            let stray = object.keys.first { !ScriptStep.names.contains($0) }
            let hint = stray.flatMap { key in
                Suggestion.closest(to: key, among: ScriptStep.names + besides).map { "; \"\(key)\" is no step kind: did you mean \"\($0)\"?" }
            } ?? ""
            throw JSONSchemaError(
                path, "a step is an object with exactly one key, the step kind (one of \(ScriptStep.names.joined(separator: ", "))); found \(object.count) keys\(hint)")
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
        case "network":
            return .network(try networkConditions(body, at: at))
        case "send":
            return .send(try sendItems(body, at: at))
        case "otherPhone":
            return .otherPhone(try otherPhone(body, at: at))
        case "radio":
            if case .object(let fields) = body, let blackout = fields["blackoutMs"] {
                return .radioBlackout(try radioBlackout(blackout, fields, at: at))
            }
            return .radio(try radioConditions(body, at: at))
        case _ where !ScriptStep.names.contains(name):
            throw JSONSchemaError(
                at, "unknown step\(Suggestion.phrase(for: name, among: ScriptStep.names)); expected one of \(ScriptStep.names.joined(separator: ", "))")
        default:
            let fields = StepFields(fields: try body.object(at: at), at: at)
            if let gesture = try gestureStep(name, fields) { return gesture }
            return try controlStep(name, fields)
        }
    }

    /// `{"packetErrorPercent": 10}`, `{"intervalMs": 30}` (both may be given) or `"reset"` (nil): 0 ≤ P < 100, an
    /// interval of 7.5 to 4000 ms in steps of 1.25 (the Core spec's range).
    private static func radioConditions(_ body: JSONValue, at: JSONPath) throws(JSONSchemaError) -> RadioConditions? {
        if case .string(let text) = body {
            guard text == "reset" else { throw JSONSchemaError(.unknownValue, at, "expected \"reset\", {\"packetErrorPercent\": P}, {\"intervalMs\": I} or {\"blackoutMs\": N}, found \(text.debugDescription)") }
            return nil
        }
        let step = StepFields(fields: try body.object(at: at), at: at)
        try step.allow(["packetErrorPercent", "intervalMs", "blackoutMs"])
        guard step.fields["packetErrorPercent"] != nil || step.fields["intervalMs"] != nil else {
            throw JSONSchemaError(at, "give packetErrorPercent (0 to under 100), intervalMs (7.5 to 4000), blackoutMs, or \"reset\"")
        }
        var conditions = RadioConditions()
        if let value = step.fields["packetErrorPercent"] {
            let percent = try value.number(at: at.appending("packetErrorPercent"))
            guard BridgeCommand.errorRates.contains(percent / 100) else {
                throw JSONSchemaError(.outOfRange, at.appending("packetErrorPercent"), "\(JSONWriter.numberText(percent)) is outside 0 to under 100: at 100 nothing would ever get through")
            }
            conditions.packetErrorPercent = percent
        }
        if let value = step.fields["intervalMs"] {
            let ms = try value.number(at: at.appending("intervalMs"))
            let units = ms / 1.25
            guard (7.5...4000).contains(ms), units == units.rounded() else {
                throw JSONSchemaError(.outOfRange, at.appending("intervalMs"), "\(JSONWriter.numberText(ms)) is not a connection interval: 7.5 to 4000 ms in steps of 1.25")
            }
            conditions.intervalMs = ms
        }
        return conditions
    }

    /// `{"blackoutMs": N}` alone: 1 ms to 60 s of nothing getting through.
    private static func radioBlackout(_ value: JSONValue, _ fields: JSONObject, at: JSONPath) throws(JSONSchemaError) -> Duration {
        if let other = fields.keys.first(where: { $0 != "blackoutMs" }) {
            throw JSONSchemaError(at.appending(other), "a blackout is a step of its own: give blackoutMs alone, and \(other) in another radio step")
        }
        let ms = try value.number(at: at.appending("blackoutMs"))
        guard (1...60_000).contains(ms) else {
            throw JSONSchemaError(.outOfRange, at.appending("blackoutMs"), "\(JSONWriter.numberText(ms)) is outside 1 to 60000 ms")
        }
        return .microseconds(Int64((ms * 1000).rounded()))
    }

    /// `{"delayMs": 20, "jitterMs": 5, "lossPercent": 5}` (each optional, 0 when absent) or `"reset"` (nil).
    private static func networkConditions(_ body: JSONValue, at: JSONPath) throws(JSONSchemaError) -> NetworkConditions? {
        if case .string(let text) = body {
            guard text == "reset" else { throw JSONSchemaError(.unknownValue, at, "expected \"reset\" or {\"delayMs\", \"jitterMs\", \"lossPercent\"}, found \(text.debugDescription)") }
            return nil
        }
        let step = StepFields(fields: try body.object(at: at), at: at)
        try step.allow(["delayMs", "jitterMs", "lossPercent"])
        let number = { (limit: Double) in
            { (value: JSONValue, path: JSONPath) throws(JSONSchemaError) -> Double in
                let number = try value.number(at: path)
                guard (0...limit).contains(number) else { throw JSONSchemaError(.outOfRange, path, "\(number) is outside 0...\(Int(limit))") }
                return number
            }
        }
        let conditions = NetworkConditions(
            delayMs: try step.optional("delayMs", 0, number(10_000)), jitterMs: try step.optional("jitterMs", 0, number(10_000)),
            lossPercent: try step.optional("lossPercent", 0, number(100)))
        guard conditions.jitterMs <= conditions.delayMs else {
            throw JSONSchemaError(at.appending("jitterMs"), "jitter \(conditions.jitterMs) ms is more than the delay \(conditions.delayMs) ms (netem would reorder most packets)")
        }
        return conditions
    }

    /// The gesture shorthands; nil for another kind.
    private static func gestureStep(_ name: String, _ step: StepFields) throws(JSONSchemaError) -> ScriptStep? {
        let point = StepFields.point, ms = StepFields.ms, origin = ScriptStep.defaultPoint
        switch name {
        case "swipe":
            try step.allow(["from", "to", "durationMs", "fingers"])
            let fingers = try step.optional("fingers", 1) { value, path throws(JSONSchemaError) in try value.integer(at: path, in: 1...3) }
            return .swipe(from: try step.optional("from", origin, point), to: try step.required("to", point),
                          duration: try step.required("durationMs", ms), fingers: fingers)
        case "tap":
            try step.allow(["at", "durationMs"])
            return .tap(at: try step.optional("at", origin, point), duration: try step.optional("durationMs", .milliseconds(60), ms))
        case "doubleTap":
            try step.allow(["at", "gapMs"])
            return .doubleTap(at: try step.optional("at", origin, point), gap: try step.optional("gapMs", .milliseconds(120), ms))
        case "longPress":
            try step.allow(["at", "durationMs"])
            return .longPress(at: try step.optional("at", origin, point), duration: try step.optional("durationMs", .milliseconds(800), ms))
        case "drag":
            try step.allow(["at", "holdMs", "by", "durationMs"])
            return .drag(at: try step.optional("at", origin, point), hold: try step.optional("holdMs", .milliseconds(600), ms),
                         by: try step.required("by", point), duration: try step.optional("durationMs", .milliseconds(300), ms))
        case "twoFingerTap":
            try step.allow(["at"])
            return .twoFingerTap(at: try step.optional("at", origin, point))
        case "scroll":
            try step.allow(["by", "durationMs"])
            return .scroll(by: try step.required("by", point), duration: try step.optional("durationMs", .milliseconds(250), ms))
        case "pinch":
            try step.allow(["scale", "durationMs"])
            let scale = try step.required("scale") { value, path throws(JSONSchemaError) in
                let scale = try value.number(at: path)
                guard scale >= 0.2 && scale <= 5 else { throw JSONSchemaError(.outOfRange, path, "pinch scale \(scale) is outside 0.2...5") }
                return scale
            }
            return .pinch(scale: scale, duration: try step.optional("durationMs", .milliseconds(300), ms))
        case "threeFingerSwipe":
            try step.allow(["direction", "distance", "durationMs"])
            let distance = try step.optional("distance", 120.0) { value, path throws(JSONSchemaError) in
                try value.number(at: path, magnitude: 2000)
            }
            let direction = try step.required("direction") { value, path throws(JSONSchemaError) in
                try value.enumeration(SwipeDirection.self, at: path)
            }
            return .threeFingerSwipe(direction: direction, distance: distance, duration: try step.optional("durationMs", .milliseconds(250), ms))
        default:
            return nil
        }
    }

    /// The link, pairing, hostile-write and wait steps.
    private static func controlStep(_ name: String, _ step: StepFields) throws(JSONSchemaError) -> ScriptStep {
        switch name {
        case "linkDrop":
            try step.allow(["forMs", "adapter"])
            return .linkDrop(try step.required("forMs", StepFields.ms), side: try step.optional("adapter", .computer) { value, path throws(JSONSchemaError) in
                try value.enumeration(LinkSide.self, at: path)
            })
        case "disconnect", "restartBluetoothd", "restartPeripheral":
            try step.allow([])
            return name == "disconnect" ? .disconnect : name == "restartBluetoothd" ? .restartBluetoothd : .restartPeripheral
        case "malformedWrites":
            try step.allow(["count"])
            return .malformedWrites(count: try step.required("count") { value, path throws(JSONSchemaError) in
                try value.integer(at: path, in: 1...100_000)
            })
        case "partition":
            try step.allow(["forMs"])
            return .partition(try step.required("forMs", StepFields.ms))
        case "forgedPackets":
            try step.allow(["count", "from", "packets"])
            return .forgedPackets(count: try step.required("count") { value, path throws(JSONSchemaError) in
                try value.integer(at: path, in: 1...100_000)
            }, from: try step.optional("from", .attacker) { value, path throws(JSONSchemaError) in
                try value.enumeration(ForgedSource.self, at: path)
            }, packets: try step.optional("packets", .movement) { value, path throws(JSONSchemaError) in
                try value.enumeration(ForgedPackets.self, at: path)
            })
        case "pair":
            try step.allow(["code"])
            return .pair(try step.required("code") { value, path throws(JSONSchemaError) in
                let text = try value.string(at: path)
                switch text {
                case "shown": return .shown
                case "wrong": return .wrong
                case _ where text.utf8.count == 6 && text.utf8.allSatisfy({ (0x30...0x39).contains($0) }): return .digits(text)
                default: throw JSONSchemaError(path, "expected \"shown\", \"wrong\" or 6 digits, found \(text.debugDescription)")
                }
            })
        case "reconnect":
            try step.allow(["timeoutMs"])
            return .reconnect(timeout: try step.optional("timeoutMs", .seconds(10)) { value, path throws(JSONSchemaError) in
                try milliseconds(value, at: path, positive: true)
            })
        default:  // "wait"
            try step.allow(["ms"])
            return .wait(try step.required("ms", StepFields.ms))
        }
    }
}

/// A step's fields, read with their JSON paths.
struct StepFields {
    let fields: JSONObject
    let at: JSONPath

    func allow(_ keys: [String]) throws(JSONSchemaError) {
        try fields.rejectUnknownKeys(allowed: keys, at: at)
    }

    func optional<T>(_ key: String, _ default: T, _ read: (JSONValue, JSONPath) throws(JSONSchemaError) -> T) throws(JSONSchemaError) -> T {
        guard let value = fields[key] else { return `default` }
        return try read(value, at.appending(key))
    }

    func required<T>(_ key: String, _ read: (JSONValue, JSONPath) throws(JSONSchemaError) -> T) throws(JSONSchemaError) -> T {
        try read(try fields.required(key, at: at), at.appending(key))
    }

    static let point: @Sendable (JSONValue, JSONPath) throws(JSONSchemaError) -> Point = { value, path throws(JSONSchemaError) in
        try Point(json: value, at: path)
    }

    static let ms: @Sendable (JSONValue, JSONPath) throws(JSONSchemaError) -> Duration = { value, path throws(JSONSchemaError) in
        try ScriptReader.milliseconds(value, at: path, positive: false)
    }
}
