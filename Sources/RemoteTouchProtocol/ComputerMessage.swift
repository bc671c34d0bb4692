public import StrictJSON

/// What the computer sends back over the TCP transport, one message per frame (`NetworkFrame`):
/// - `{"type":"pong","timestamp":<the ping's>,"receivedAt":<computer's Unix ms>}`, at once for each ping;
/// - `{"type":"pairing","status":<PairingStatus>}` after a `pairingRequest` or a `pair`;
/// - `{"type":"status","status":<StatusData>}` every 2 s (R5), and at once with `error` after a refusal;
/// - `{"type":"udpBound","address":"10.77.0.2","port":50123}` after a `bindUDP` from a paired phone: movement
///   packets from that address and port are this session's until it ends;
/// - `{"type":"error","code":"…","message":"…"}` for a frame it refused (nothing of it was injected), and as the
///   last frame before it closes a connection, saying why.
public enum ComputerMessage: Sendable, Hashable {
    case pong(pingTimestamp: Double, receivedAt: Double)
    case pairing(PairingStatus)
    case status(StatusData)
    case error(StatusError)
    case udpBound(address: String, port: UInt16)

    public var json: JSONValue {
        switch self {
        case .pong(let ping, let received):
            return ["type": "pong", "timestamp": .number(ping), "receivedAt": .number(received)]
        case .pairing(let status):
            return ["type": "pairing", "status": status.json]
        case .status(let status):
            return ["type": "status", "status": status.json]
        case .error(let error):
            return ["type": "error", "code": .string(error.code), "message": .string(error.message)]
        case .udpBound(let address, let port):
            return ["type": "udpBound", "address": .string(address), "port": .number(Double(port))]
        }
    }

    /// The message as one whole frame, header included.
    public func frame() -> [UInt8] {
        NetworkFrame.encode(JSONWriter().bytes(json))
    }

    /// Decodes one frame body from the computer.
    public static func decode(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> ComputerMessage {
        let value: JSONValue
        do {
            value = try JSONParser(maxDepth: 8).parse(bytes)
        } catch {
            throw .notJSON("computer message", error)
        }
        do {
            return try ComputerMessage(json: value)
        } catch let error as JSONSchemaError {
            throw .invalid("computer message", error)
        } catch let error as ProtocolError {
            throw error
        } catch {
            throw ProtocolError(.invalid, payload: "computer message", "\(error)")
        }
    }

    private init(json value: JSONValue) throws {
        let object = try value.object(at: .root)
        let type = try object.required("type", at: .root).string(at: .root.appending("type"))
        switch type {
        case "pong":
            try object.rejectUnknownKeys(allowed: ["type", "timestamp", "receivedAt"], at: .root)
            self = .pong(
                pingTimestamp: try object.required("timestamp", at: .root).number(at: .root.appending("timestamp")),
                receivedAt: try object.required("receivedAt", at: .root).number(at: .root.appending("receivedAt")))
        case "pairing", "status":
            try object.rejectUnknownKeys(allowed: ["type", "status"], at: .root)
            let bytes = JSONWriter().bytes(try object.required("status", at: .root))
            self = type == "pairing" ? .pairing(try PairingStatus.decode(bytes)) : .status(try StatusData.decode(bytes))
        case "error":
            try object.rejectUnknownKeys(allowed: ["type", "code", "message"], at: .root)
            self = .error(StatusError(
                code: try object.required("code", at: .root).string(at: .root.appending("code")),
                message: try object.required("message", at: .root).string(at: .root.appending("message"))))
        case "udpBound":
            try object.rejectUnknownKeys(allowed: ["type", "address", "port"], at: .root)
            let port = try object.required("port", at: .root).udpPort(at: .root.appending("port"))
            let address = try object.required("address", at: .root).string(at: .root.appending("address"))
            self = .udpBound(address: address, port: port)
        default:
            throw JSONSchemaError(.unknownValue, .root.appending("type"), "unknown message type \(type.debugDescription); expected pong, pairing, status, udpBound or error")
        }
    }
}
