public import StrictJSON

/// What the phone sends over the TCP transport, one frame at a time (`NetworkFrame`): a message object
/// `{"type": "mouseMove", "timestamp": 1532.25, "dx": 3, "dy": -1}` or a batch, an array of them. Types are the
/// seed's (seeds/ipad-trackpad-design.md, "Message Types") and, for what the seed leaves out, this project's
/// extension: the pairing messages and the RemoteTouch commands the seed has no type for (`button`,
/// `modeChange`, `mediaControl`). `timestamp` is the phone's clock in milliseconds (any epoch, never going
/// back within a session). docs/protocol.md lists every type with its bytes.
public struct PhoneMessage: Sendable, Hashable {
    public enum Body: Sendable, Hashable {
        /// Answered at once with a `pong` carrying both clocks.
        case ping
        /// Asks the computer to show a pairing code (BLE: a read of the pairing characteristic).
        case pairingRequest
        /// Enters the code shown on the computer.
        case pair(code: String)
        /// A pinch begins or ends: the seed's bracket around `pinchUpdate`s; nothing to inject.
        case pinchStart
        case pinchEnd
        /// The udp transport: movement packets from the sender's address (this connection's peer) and this UDP
        /// port belong to this session. Answered with `udpBound`, or an `error` when the phone is not paired.
        case bindUDP(port: UInt16)
        /// A RemoteTouch command: the same decode, paired check, mapping and injection as on BLE.
        case command(Command)
    }

    public var timestamp: Double
    public var body: Body

    public init(timestamp: Double, _ body: Body) {
        self.timestamp = timestamp
        self.body = body
    }

    /// The message's `type`.
    public var type: String {
        switch body {
        case .ping: "ping"
        case .pairingRequest: "pairingRequest"
        case .pair: "pair"
        case .pinchStart: "pinchStart"
        case .pinchEnd: "pinchEnd"
        case .bindUDP: "bindUDP"
        case .command(let command): Self.type(of: command)
        }
    }

    /// Every message type the computer accepts.
    public static let types = [
        "ping", "pairingRequest", "pair", "mouseMove", "leftClick", "doubleClick", "rightClick", "scroll", "pinchStart",
        "pinchUpdate", "pinchEnd", "dragStart", "dragMove", "dragEnd", "systemGesture", "keyPress", "text", "button",
        "modeChange", "mediaControl", "bindUDP",
    ]

    /// The seed's name for a command, where it has one.
    static func type(of command: Command) -> String {
        switch command {
        case .cursorMove: "mouseMove"
        case .tap(.single): "leftClick"
        case .tap(.double): "doubleClick"
        case .pinch: "pinchUpdate"
        default: command.name
        }
    }

    public var json: JSONValue {
        var object = JSONObject([("type", .string(type)), ("timestamp", .number(timestamp))])
        switch body {
        case .ping, .pairingRequest, .pinchStart, .pinchEnd: break
        case .pair(let code): object.set("code", .string(code))
        case .bindUDP(let port): object.set("port", .number(Double(port)))
        case .command(let command): for (key, value) in Self.fields(of: command) { object.set(key, value) }
        }
        return .object(object)
    }

    /// The command's payload as flat message fields: `cursorMove {"delta":[3,-1]}` is `"dx": 3, "dy": -1`.
    static func fields(of command: Command) -> [(String, JSONValue)] {
        switch command {
        case .cursorMove(let delta), .dragMove(let delta): return [("dx", .number(delta.x)), ("dy", .number(delta.y))]
        case .tap: return []
        default:
            guard case .object(let outer) = command.json, case .object(let payload)? = outer.entries.first?.value else { return [] }
            return payload.entries.map { ($0.key, $0.value) }
        }
    }

    /// A frame body with these messages: one object, or an array when there are several.
    public static func frameBody(_ messages: [PhoneMessage]) -> [UInt8] {
        JSONWriter().bytes(messages.count == 1 ? messages[0].json : .array(messages.map(\.json)))
    }
}
