public import StrictJSON

/// Command ⇄ JSON in the encoding of Swift's synthesized `Codable` for enums with associated values.
extension Command {
    /// The largest coordinate accepted in a delta or scroll: the range of the HID report's int16 fields.
    /// Anything larger is a bug or an attack, never a finger.
    public static let maxDelta: Double = 32767
    /// Pinch scales outside this range are refused (a single 16 ms step never zooms 100×).
    public static let pinchScaleRange: ClosedRange<Double> = 0.01...100

    /// The exact bytes the real phone app writes for this command.
    public func encoded() -> [UInt8] {
        JSONWriter().bytes(json)
    }

    public var json: JSONValue {
        let payload: JSONValue
        switch self {
        case .cursorMove(let delta): payload = ["delta": delta.json]
        case .tap(let type): payload = ["type": .string(type.rawValue)]
        case .button(let action): payload = ["action": .string(action.rawValue)]
        case .modeChange(let mode): payload = ["mode": .string(mode.rawValue)]
        case .mediaControl(let action): payload = ["action": .string(action.rawValue)]
        case .pinch(let scale): payload = ["scale": .number(scale)]
        case .scroll(let dx, let dy): payload = ["dx": .number(dx), "dy": .number(dy)]
        case .rightClick, .dragStart, .dragEnd: payload = [:]
        case .dragMove(let delta): payload = ["delta": delta.json]
        case .systemGesture(let gesture): payload = ["gesture": .string(gesture.rawValue)]
        case .keyPress(let key, let modifiers):
            payload = ["key": .string(key.rawValue), "modifiers": .array(modifiers.map { .string($0.rawValue) })]
        case .text(let string): payload = ["string": .string(string)]
        }
        return .object(JSONObject([(name, payload)]))
    }

    /// Decodes a command characteristic write.
    ///
    /// Accepts `10` and `10.0`, keys in any order and white space; refuses payloads over 512 bytes, anything
    /// that is not exactly one JSON value, NaN and infinities, unknown cases and keys, and absurd magnitudes.
    /// - Throws: `ProtocolError` whose message names what was wrong and where (`cursorMove.delta[0]: …`).
    public static func decode(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> Command {
        if let streamed = bytes.withContiguousStorageIfAvailable(decodeStreamed), let command = streamed { return command }
        return try decodeStrictly(bytes)
    }

    /// `decode` without its fast path (`decodeStreamed`): the strict parser for every payload.
    package static func decodeStrictly(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> Command {
        try ProtocolError.decodeJSON(bytes, payload: "command", maxDepth: 8) { value throws(JSONSchemaError) in
            try Command(json: value, at: .root)
        }
    }

    /// Reads a command from a parsed value (a scenario file's inline command, or a decoded write).
    public init(json value: JSONValue, at path: JSONPath) throws(JSONSchemaError) {
        let object = try value.object(at: path)
        guard object.count == 1, let (name, payloadValue) = object.entries.first else {
            throw JSONSchemaError(
                path,
                "a command is an object with exactly one key, the case name (one of \(Command.caseNames.joined(separator: ", "))); found \(object.count) keys")
        }
        let at = path.appending(name)
        guard Command.caseNames.contains(name) else {
            throw JSONSchemaError(
                .unknownKey, at, "unknown command; expected one of \(Command.caseNames.joined(separator: ", "))")
        }
        let payload = try payloadValue.object(at: at)
        func field(_ key: String) throws(JSONSchemaError) -> JSONValue {
            try payload.required(key, at: at)
        }
        switch name {
        case "cursorMove":
            try payload.rejectUnknownKeys(allowed: ["delta"], at: at)
            self = .cursorMove(delta: try Point(json: field("delta"), at: at.appending("delta")))
        case "tap":
            try payload.rejectUnknownKeys(allowed: ["type"], at: at)
            self = .tap(type: try field("type").enumeration(ClickType.self, at: at.appending("type")))
        case "button":
            try payload.rejectUnknownKeys(allowed: ["action"], at: at)
            self = .button(action: try field("action").enumeration(ButtonAction.self, at: at.appending("action")))
        case "modeChange":
            try payload.rejectUnknownKeys(allowed: ["mode"], at: at)
            self = .modeChange(mode: try field("mode").enumeration(ControlMode.self, at: at.appending("mode")))
        case "mediaControl":
            try payload.rejectUnknownKeys(allowed: ["action"], at: at)
            self = .mediaControl(action: try field("action").enumeration(MediaAction.self, at: at.appending("action")))
        case "pinch":
            try payload.rejectUnknownKeys(allowed: ["scale"], at: at)
            let scale = try field("scale").number(at: at.appending("scale"))
            guard Command.pinchScaleRange.contains(scale) else {
                throw JSONSchemaError(
                    at.appending("scale"), "\(JSONWriter.numberText(scale)) is outside \(Command.pinchScaleRange)")
            }
            self = .pinch(scale: scale)
        case "scroll":
            try payload.rejectUnknownKeys(allowed: ["dx", "dy"], at: at)
            self = .scroll(
                dx: try field("dx").number(at: at.appending("dx"), magnitude: Command.maxDelta),
                dy: try field("dy").number(at: at.appending("dy"), magnitude: Command.maxDelta))
        case "rightClick", "dragStart", "dragEnd":
            try payload.rejectUnknownKeys(allowed: [], at: at)
            self = name == "rightClick" ? .rightClick : name == "dragStart" ? .dragStart : .dragEnd
        case "dragMove":
            try payload.rejectUnknownKeys(allowed: ["delta"], at: at)
            self = .dragMove(delta: try Point(json: field("delta"), at: at.appending("delta")))
        case "systemGesture":
            try payload.rejectUnknownKeys(allowed: ["gesture"], at: at)
            self = .systemGesture(
                gesture: try field("gesture").enumeration(SystemGesture.self, at: at.appending("gesture")))
        case "keyPress":
            self = try Command.keyPress(payload: payloadValue, at: at)
        default:  // "text"
            try payload.rejectUnknownKeys(allowed: ["string"], at: at)
            let string = try field("string").string(at: at.appending("string"))
            guard !string.isEmpty else { throw JSONSchemaError(at.appending("string"), "text must not be empty") }
            self = .text(string: string)
        }
    }
}

extension Command {
    /// Reads a keyPress payload, `{"key": "c", "modifiers": ["command"]}` (modifiers may be left out).
    public static func keyPress(payload value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> Command {
        let payload = try value.object(at: path)
        try payload.rejectUnknownKeys(allowed: ["key", "modifiers"], at: path)
        let key = try payload.required("key", at: path).enumeration(Key.self, at: path.appending("key"))
        var modifiers: [KeyModifier] = []
        if let list = payload["modifiers"] {
            let modifiersPath = path.appending("modifiers")
            for (index, element) in try list.array(at: modifiersPath).enumerated() {
                let modifier = try element.enumeration(KeyModifier.self, at: modifiersPath.appending(index))
                guard !modifiers.contains(modifier) else {
                    throw JSONSchemaError(modifiersPath.appending(index), "modifier \"\(modifier.rawValue)\" is listed twice")
                }
                modifiers.append(modifier)
            }
        }
        return .keyPress(key: key, modifiers: modifiers)
    }
}

extension Point {
    var json: JSONValue { [.number(x), .number(y)] }

    /// `[x, y]`, each finite and within ±`Command.maxDelta`.
    public init(json value: JSONValue, at path: JSONPath) throws(JSONSchemaError) {
        let elements = try value.array(at: path)
        guard elements.count == 2 else {
            throw JSONSchemaError(path, "a point is [x, y]: expected 2 numbers, found \(elements.count)")
        }
        self.init(
            x: try elements[0].number(at: path.appending(0), magnitude: Command.maxDelta),
            y: try elements[1].number(at: path.appending(1), magnitude: Command.maxDelta))
    }
}
