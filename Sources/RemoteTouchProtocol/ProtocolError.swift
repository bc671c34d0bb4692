import StrictJSON

/// Why a payload received on one of the RemoteTouch characteristics was refused.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// Longer than the ATT attribute limit (512 bytes).
        case tooLarge
        /// Not JSON (broken, truncated, NaN, trailing garbage, too deep).
        case notJSON
        /// JSON, but not a valid payload of this kind (unknown case, wrong type, out-of-range number).
        case invalid
        /// Binary report or packet of the wrong length or with reserved bits set.
        case malformedBinary
    }

    public var code: Code
    /// Which payload: "command", "status", "pairing code", "HID report", "UDP packet".
    public var payload: String
    public var message: String

    public init(_ code: Code, payload: String, _ message: String) {
        self.code = code
        self.payload = payload
        self.message = message
    }

    public var description: String { what }
    /// What, in the package's error shape (System's `ExplainedError`: this module does not depend on System, and
    /// `hil` declares the conformance): `command payload: 600 bytes is over the ATT limit of 512 bytes`.
    public var what: String { "\(payload) payload: \(message)" }
    /// None: a refused payload is the sender's to fix, and the message says what is wrong with it.
    public var hint: String? { nil }

    static func tooLarge(_ payload: String, count: Int, limit: Int = RemoteTouchService.maxAttributeLength) -> ProtocolError {
        ProtocolError(
            .tooLarge, payload: payload,
            limit == RemoteTouchService.maxAttributeLength
                ? "\(count) bytes is over the ATT limit of \(limit) bytes" : "\(count) bytes is over the limit of \(limit) bytes")
    }

    static func notJSON(_ payload: String, _ error: JSONParseError) -> ProtocolError {
        ProtocolError(.notJSON, payload: payload, "not valid JSON: \(error.description)")
    }

    static func invalid(_ payload: String, _ error: JSONSchemaError) -> ProtocolError {
        ProtocolError(.invalid, payload: payload, error.description)
    }
}

extension ProtocolError {
    /// The shared path of every JSON payload: a size limit (the ATT limit unless told), strict parsing with a
    /// nesting limit, then `read` on the parsed value; each failure becomes a `ProtocolError` naming `payload`.
    static func decodeJSON<T>(
        _ bytes: some Collection<UInt8>, payload: String, maxDepth: Int, limit: Int = RemoteTouchService.maxAttributeLength,
        _ read: (JSONValue) throws(JSONSchemaError) -> T
    ) throws(ProtocolError) -> T {
        if bytes.count > limit {
            throw .tooLarge(payload, count: bytes.count, limit: limit)
        }
        let value: JSONValue
        do {
            value = try JSONParser(maxDepth: maxDepth).parse(bytes)
        } catch {
            throw .notJSON(payload, error)
        }
        do {
            return try read(value)
        } catch {
            throw .invalid(payload, error)
        }
    }
}
