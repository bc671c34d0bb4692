import GestureModel
package import RemoteTouchProtocol
package import StrictJSON

/// One item of a `send` step, a raw step that bypasses the phone's gesture model: what the phone writes, at a time
/// from the step's start. `hil record` writes them from what a computer received (docs/recording.md).
///
/// ```json
/// {"atMs": 0, "command": {"modeChange": {"mode": "basicMouse"}}}
/// {"atMs": 8.25, "report": "010a00000000"}
/// {"atMs": 9, "packet": "aa0005fb00"}
/// ```
package struct SendItem: Sendable, Hashable {
    /// From the step's start.
    package var at: Duration
    package var payload: SendPayload

    package init(at: Duration, _ payload: SendPayload) {
        self.at = at
        self.payload = payload
    }

    /// The item as the scenario file writes it.
    package var json: JSONValue {
        var object = JSONObject([("atMs", .number(at.milliseconds))])
        object.set(payload.key, payload.jsonValue)
        return .object(object)
    }
}

/// What a `send` item writes: a command of the protocol (on the command characteristic, or as a message over tcp or
/// the udp transport's control connection), a hid report (the report characteristic), or a udp movement packet.
package enum SendPayload: Sendable, Hashable, CustomStringConvertible {
    case command(Command)
    /// A 6-byte HID report: the hid transport only.
    case report(HIDReport)
    /// A 5-byte 0xAA movement packet: the udp transport only.
    case packet(UDPPacket)

    /// The item's key in JSON.
    package var key: String {
        switch self {
        case .command: "command"
        case .report: "report"
        case .packet: "packet"
        }
    }

    /// The bytes that go on the wire: the command's JSON, the report's 6 bytes, the packet's 5.
    package var bytes: [UInt8] {
        switch self {
        case .command(let command): command.encoded()
        case .report(let report): report.encoded()
        case .packet(let packet): packet.encoded()
        }
    }

    /// As the computer's receipts show it: the command's JSON, `hid 010a00000000`, `udp aa0005fb00`.
    package var description: String {
        switch self {
        case .command(let command): String(decoding: command.encoded(), as: UTF8.self)
        case .report(let report): PointerPayload.text(report.encoded(), format: .hid)
        case .packet(let packet): PointerPayload.text(packet.encoded(), format: .udp)
        }
    }

    var jsonValue: JSONValue {
        switch self {
        case .command(let command): command.json
        case .report, .packet: .string(PointerPayload.hex(bytes))
        }
    }
}
