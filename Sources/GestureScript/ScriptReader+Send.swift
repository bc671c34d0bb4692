import GestureModel
import RemoteTouchProtocol
import StrictJSON

extension ScriptReader {
    /// The most items one `send` step takes (a long recording is split into segments anyway).
    static let maxSendItems = 100_000

    /// `[{"atMs": 0, "command": {…}}, {"atMs": 8, "report": "010a00000000"}, {"atMs": 9, "packet": "aa05000000"}]`:
    /// each item has exactly one of `command`, `report` and `packet`; times from the step's start, not decreasing.
    static func sendItems(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> [SendItem] {
        let elements = try value.array(at: path)
        guard !elements.isEmpty else { throw JSONSchemaError(path, "a send step needs at least one item") }
        guard elements.count <= maxSendItems else {
            throw JSONSchemaError(path, "\(elements.count) items; at most \(maxSendItems) in one send step (split it into steps)")
        }
        var items: [SendItem] = []
        for (index, element) in elements.enumerated() {
            let item = try sendItem(element, at: path.appending(index))
            if let previous = items.last, item.at < previous.at {
                throw JSONSchemaError(
                    path.appending(index).appending("atMs"),
                    "\(Self.text(item.at)) ms goes back in time: the item before is at \(Self.text(previous.at)) ms (items must not go back in time)")
            }
            items.append(item)
        }
        return items
    }

    private static func sendItem(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> SendItem {
        let object = try value.object(at: path)
        try object.rejectUnknownKeys(allowed: ["atMs", "command", "report", "packet"], at: path)
        let time = try milliseconds(try object.required("atMs", at: path), at: path.appending("atMs"), positive: false)
        let kinds = ["command", "report", "packet"].filter { object[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first, let body = object[kind] else {
            throw JSONSchemaError(
                path, kinds.isEmpty
                    ? "an item needs one of command, report (hid) or packet (udp)"
                    : "an item has exactly one of command, report and packet; found \(kinds.joined(separator: " and "))")
        }
        let at = path.appending(kind)
        switch kind {
        case "command":
            return SendItem(at: time, .command(try command(body, at: at)))
        case "report":
            let bytes = try hexBytes(body, count: HIDReport.length, what: "a 6-byte HID report", at: at)
            do {
                return SendItem(at: time, .report(try HIDReport.decode(bytes)))
            } catch {
                throw JSONSchemaError(at, error.description)
            }
        default:
            let bytes = try hexBytes(body, count: UDPPacket.length, what: "a 5-byte UDP packet", at: at)
            let packet: UDPPacket
            do {
                packet = try UDPPacket.decode(bytes)
            } catch {
                throw JSONSchemaError(at, error.description)
            }
            guard packet.header == .movement else {
                throw JSONSchemaError(at, "header 0x\(PointerPayload.hex([bytes[0]])) is not a movement packet (0xaa): control goes over the udp transport's TCP connection, as a command item")
            }
            return SendItem(at: time, .packet(packet))
        }
    }

    /// A command as the protocol's decoder takes it (its cases, ranges and the 512-byte limit of a write).
    static func command(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> Command {
        let command = try Command(json: value, at: path)
        do {
            return try Command.decode(command.encoded())
        } catch {
            throw JSONSchemaError(path, error.description)
        }
    }

    private static func hexBytes(_ value: JSONValue, count: Int, what: String, at path: JSONPath) throws(JSONSchemaError) -> [UInt8] {
        let text = try value.string(at: path)
        guard let bytes = PointerPayload.bytes(hex: text, count: count) else {
            throw JSONSchemaError(path, "\(text.debugDescription) is not \(what): expected \(count * 2) hex digits")
        }
        return bytes
    }

    private static func text(_ duration: Duration) -> String {
        JSONWriter.numberText(duration.milliseconds)
    }
}
