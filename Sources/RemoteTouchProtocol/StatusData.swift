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

    public func encoded() -> [UInt8] {
        JSONWriter().bytes(json)
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
