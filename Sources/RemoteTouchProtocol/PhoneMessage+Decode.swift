public import StrictJSON

extension PhoneMessage {
    /// At most this many messages in one frame (a 120 Hz batch holds what 8 ms of gestures produce).
    public static let maxBatch = 64
    /// Timestamps are milliseconds; anything over this (about 31 years) is not a clock.
    public static let maxTimestamp: Double = 1e12

    /// Decodes one frame's body: a message or a non-empty batch of them. Strict as the BLE command decoder:
    /// exactly one JSON value, no unknown types or keys, finite numbers within range.
    /// - Throws: `ProtocolError` naming what was wrong and where (`[2].dx: …`).
    public static func decodeFrame(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> [PhoneMessage] {
        if let streamed = bytes.withContiguousStorageIfAvailable(decodeStreamed), let message = streamed { return [message] }
        return try decodeFrameStrictly(bytes)
    }

    /// `decodeFrame` without its fast path (`decodeStreamed`): the strict parser for every frame.
    package static func decodeFrameStrictly(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> [PhoneMessage] {
        try ProtocolError.decodeJSON(bytes, payload: "TCP frame", maxDepth: 8, limit: NetworkFrame.maxLength) {
            value throws(JSONSchemaError) in
            guard case .array(let elements) = value else { return [try PhoneMessage(json: value, at: .root)] }
            guard (1...maxBatch).contains(elements.count) else {
                throw JSONSchemaError(.root, "a batch holds 1 to \(maxBatch) messages; found \(elements.count)")
            }
            var messages: [PhoneMessage] = []
            for (index, element) in elements.enumerated() {
                messages.append(try PhoneMessage(json: element, at: .root.appending(index)))
            }
            return messages
        }
    }

    /// Reads one message object.
    public init(json value: JSONValue, at path: JSONPath) throws(JSONSchemaError) {
        let object = try value.object(at: path)
        let type = try object.required("type", at: path).string(at: path.appending("type"))
        guard Self.types.contains(type) else {
            throw JSONSchemaError(.unknownValue, path.appending("type"), "unknown message type \(type.debugDescription); expected one of \(Self.types.joined(separator: ", "))")
        }
        let timestamp = try object.required("timestamp", at: path).number(at: path.appending("timestamp"), magnitude: Self.maxTimestamp)
        guard timestamp >= 0 else { throw JSONSchemaError(path.appending("timestamp"), "a timestamp is not negative") }
        var fields = JSONObject()
        for entry in object.entries where entry.key != "type" && entry.key != "timestamp" { fields.set(entry.key, entry.value) }
        self.init(timestamp: timestamp, try Self.body(type: type, fields: fields, at: path))
    }

    private static func body(type: String, fields: JSONObject, at path: JSONPath) throws(JSONSchemaError) -> Body {
        switch type {
        case "ping", "pairingRequest", "pinchStart", "pinchEnd":
            try fields.rejectUnknownKeys(allowed: [], at: path)
            return type == "ping" ? .ping : type == "pairingRequest" ? .pairingRequest : type == "pinchStart" ? .pinchStart : .pinchEnd
        case "pair":
            try fields.rejectUnknownKeys(allowed: ["code"], at: path)
            let code = try fields.required("code", at: path).string(at: path.appending("code"))
            guard code.utf8.count == 6, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw JSONSchemaError(path.appending("code"), "a pairing code is 6 digits")
            }
            return .pair(code: code)
        case "bindUDP":
            try fields.rejectUnknownKeys(allowed: ["port"], at: path)
            return .bindUDP(port: try fields.required("port", at: path).udpPort(at: path.appending("port")))
        case "mouseMove", "dragMove":
            try fields.rejectUnknownKeys(allowed: ["dx", "dy"], at: path)
            let delta: JSONValue = [try fields.required("dx", at: path), try fields.required("dy", at: path)]
            return .command(try command(type == "mouseMove" ? "cursorMove" : "dragMove", ["delta": delta], at: path))
        case "leftClick", "doubleClick":
            try fields.rejectUnknownKeys(allowed: [], at: path)
            return .command(.tap(type: type == "leftClick" ? .single : .double))
        case "pinchUpdate":
            return .command(try command("pinch", .object(fields), at: path))
        default:
            return .command(try command(type, .object(fields), at: path))
        }
    }

    /// The command `{name: payload}`, read by the BLE decoder's own rules; errors point at the message's fields
    /// (`cursorMove.delta[0]` is the message's `dx`).
    private static func command(_ name: String, _ payload: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> Command {
        do {
            return try Command(json: .object(JSONObject([(name, payload)])), at: .root)
        } catch {
            var inner = Array(error.path.components.dropFirst())
            if case .key("delta")? = inner.first, inner.count > 1, case .index(let index) = inner[1] {
                inner = [.key(index == 0 ? "dx" : "dy")] + inner.dropFirst(2)
            }
            throw JSONSchemaError(error.code, JSONPath(path.components + inner), error.message)
        }
    }
}

extension JSONValue {
    /// A UDP port (`bindUDP`, `udpBound`): a whole number in 1…65535, the refusal naming the range and the value as
    /// written.
    func udpPort(at path: JSONPath) throws(JSONSchemaError) -> UInt16 {
        let port = try number(at: path)
        guard port == port.rounded(), (1...65535).contains(port) else {
            throw JSONSchemaError(
                .outOfRange, path, "a UDP port is a whole number in 1…65535; found \(JSONWriter.numberText(port))")
        }
        return UInt16(port)
    }
}
