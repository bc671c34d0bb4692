public import StrictJSON

/// What the computer notifies on the status characteristic every 2 s (R5), as the seed's `StatusData`:
/// `{"batteryLevel":85,"timestamp":785000000.5,"connectionQuality":90}`.
///
/// `timestamp` is a `Date` in `JSONEncoder`'s default encoding: seconds since 2001-01-01 00:00:00 UTC.
/// `error` is this project's extension: set when the last write was refused, so the phone (and the rig)
/// can see why. The real app's synthesized `Codable` ignores the extra key.
public struct StatusData: Sendable, Hashable {
    /// Seconds between 1970-01-01 and 2001-01-01, the `Date` reference.
    public static let referenceDateOffset: Double = 978_307_200

    public var batteryLevel: Int
    /// Seconds since 2001-01-01 00:00:00 UTC (`Date.timeIntervalSinceReferenceDate`).
    public var timestamp: Double
    /// 0–100.
    public var connectionQuality: Int
    public var error: StatusError?

    public init(batteryLevel: Int, timestamp: Double, connectionQuality: Int, error: StatusError? = nil) {
        self.batteryLevel = batteryLevel
        self.timestamp = timestamp
        self.connectionQuality = connectionQuality
        self.error = error
    }

    /// `timestamp` from Unix time (seconds since 1970).
    public init(batteryLevel: Int, unixTime: Double, connectionQuality: Int, error: StatusError? = nil) {
        self.init(
            batteryLevel: batteryLevel, timestamp: unixTime - Self.referenceDateOffset,
            connectionQuality: connectionQuality, error: error)
    }

    public var unixTime: Double { timestamp + Self.referenceDateOffset }

    /// The status as the computer sends it: at most `RemoteTouchService.maxAttributeLength` (512) bytes, the ATT
    /// value it must fit in, on every transport. When an error's message would make it longer, the message is cut at
    /// a character boundary and ends with `…` (U+2026), as much of it kept as fits (`fitted`); the code is never cut.
    public func encoded() -> [UInt8] {
        JSONWriter().bytes(fitted().json)
    }

    /// This status with its error's message cut so that it encodes into `limit` bytes (the rule of `encoded()`);
    /// itself when it fits already. The fixed fields and the code take well under 200 bytes, so a message always
    /// keeps a part.
    public func fitted(within limit: Int = RemoteTouchService.maxAttributeLength) -> StatusData {
        guard let error, JSONWriter().bytes(json).count > limit else { return self }
        let characters = Array(error.message)
        func encodedCount(keeping count: Int) -> Int {
            var cut = self
            cut.error = StatusError(code: error.code, message: String(characters.prefix(count)) + "…")
            return JSONWriter().bytes(cut.json).count
        }
        // The longest prefix that fits: the encoded length grows with the prefix, so a binary search finds it.
        var low = 0, high = characters.count
        while low < high {
            let middle = (low + high + 1) / 2
            if encodedCount(keeping: middle) <= limit { low = middle } else { high = middle - 1 }
        }
        var cut = self
        cut.error = StatusError(code: error.code, message: String(characters.prefix(low)) + "…")
        return cut
    }

    /// The value `encoded()` writes (also nested in the TCP transport's `status` message).
    public var json: JSONValue {
        var object = JSONObject([
            ("batteryLevel", .number(Double(batteryLevel))),
            ("timestamp", .number(timestamp)),
            ("connectionQuality", .number(Double(connectionQuality))),
        ])
        if let error {
            object.set("error", ["code": .string(error.code), "message": .string(error.message)])
        }
        return .object(object)
    }

    /// Decodes a status notification. Unknown keys are ignored, as synthesized `Codable` ignores them.
    public static func decode(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> StatusData {
        try ProtocolError.decodeJSON(bytes, payload: "status", maxDepth: 8) { value throws(JSONSchemaError) in
            let object = try value.object(at: .root)
            var status = StatusData(
                batteryLevel: try object.required("batteryLevel", at: .root)
                    .integer(at: .root.appending("batteryLevel"), in: 0...100),
                timestamp: try object.required("timestamp", at: .root).number(at: .root.appending("timestamp")),
                connectionQuality: try object.required("connectionQuality", at: .root)
                    .integer(at: .root.appending("connectionQuality"), in: 0...100))
            if let errorValue = object["error"], errorValue != .null {
                let path = JSONPath.root.appending("error")
                let errorObject = try errorValue.object(at: path)
                status.error = StatusError(
                    code: try errorObject.required("code", at: path).string(at: path.appending("code")),
                    message: try errorObject.required("message", at: path).string(at: path.appending("message")))
            }
            return status
        }
    }
}

/// Why the computer refused the last write: `{"code":"invalidCommand","message":"…"}`.
public struct StatusError: Sendable, Hashable {
    /// One of `StatusError.Code` when the computer is this one; a string, so a reader meets a newer code unharmed.
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
