import Foundation

/// A write as docs/protocol.md defines it, read by the accounting oracle on its own: a JSON command through
/// Foundation's `JSONSerialization` (not the computer's decoder), a hid report's or a udp packet's bytes from the
/// receipt text (`hid 010a00000000`, `udp aa0005fb00`) by the byte tables of "The 6-byte HID report" and "The 5-byte
/// UDP packet".
package enum ContractPayload: Sendable, Equatable {
    case command(ContractCommand)
    /// A hid report: buttons bits (left 1, right 2, middle 4), motion in counts, wheel notches (+ up).
    case report(buttons: UInt8, dx: Int, dy: Int, wheel: Int)
    /// A udp movement packet (its buttons byte does nothing on the computer).
    case packet(dx: Int, dy: Int, wheel: Int)

    /// The payload of a receipt's or a send's text; nil for what the oracle does not read as one (a malformed write).
    package init?(text: String) {
        if text.hasPrefix("hid ") {
            guard let bytes = Self.bytes(text.dropFirst(4).prefix(12)), bytes.count == 6, text.count == 16 else { return nil }
            self = .report(buttons: bytes[0], dx: Self.int16(bytes[1], bytes[2]), dy: Self.int16(bytes[3], bytes[4]),
                           wheel: Int(Int8(bitPattern: bytes[5])))
            return
        }
        if text.hasPrefix("udp ") {
            guard let bytes = Self.bytes(text.dropFirst(4).prefix(10)), bytes.count == 5, bytes[0] == 0xAA else { return nil }
            self = .packet(dx: Int(Int8(bitPattern: bytes[2])), dy: Int(Int8(bitPattern: bytes[3])), wheel: Int(Int8(bitPattern: bytes[4])))
            return
        }
        guard let command = ContractCommand(json: text) else { return nil }
        self = .command(command)
    }

    /// What a receipt's text is matched by: a refused udp packet's receipt names its sender after the bytes.
    package static func matchKey(_ text: String) -> String {
        guard text.hasPrefix("udp "), let from = text.range(of: " from ") else { return text }
        return String(text[..<from.lowerBound])
    }

    private static func int16(_ low: UInt8, _ high: UInt8) -> Int { Int(Int16(bitPattern: UInt16(low) | UInt16(high) << 8)) }

    private static func bytes(_ hex: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var digits = hex.makeIterator()
        while let high = digits.next() {
            guard let low = digits.next(), let value = UInt8(String([high, low]), radix: 16) else { return nil }
            bytes.append(value)
        }
        return bytes
    }
}

/// A command of docs/protocol.md ("Commands"), as the oracle reads it.
package enum ContractCommand: Sendable, Equatable {
    /// `cursorMove` and `dragMove`: they share one remainder per axis.
    case move(dx: Double, dy: Double)
    case tap(double: Bool)
    case button(String)
    case modeChange(String)
    case media(String)
    case pinch(Double)
    case scroll(dx: Double, dy: Double)
    case rightClick, dragStart, dragEnd
    case systemGesture(String)
    case keyPress(key: String, modifiers: [String])
    case text(String)

    /// Reads `{"case":{…}}`; nil for anything the document does not define.
    init?(json text: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], object.count == 1,
              let (name, value) = object.first, let fields = value as? [String: Any]
        else { return nil }
        func point(_ key: String) -> (Double, Double)? {
            guard let pair = fields[key] as? [Any], pair.count == 2, let x = Self.number(pair[0]), let y = Self.number(pair[1]) else { return nil }
            return (x, y)
        }
        func string(_ key: String) -> String? { fields[key] as? String }
        switch name {
        case "cursorMove", "dragMove":
            guard let (x, y) = point("delta") else { return nil }
            self = .move(dx: x, dy: y)
        case "tap":
            guard let type = string("type"), type == "single" || type == "double" else { return nil }
            self = .tap(double: type == "double")
        case "button": guard let action = string("action") else { return nil }; self = .button(action)
        case "modeChange": guard let mode = string("mode") else { return nil }; self = .modeChange(mode)
        case "mediaControl": guard let action = string("action") else { return nil }; self = .media(action)
        case "pinch": guard let scale = fields["scale"].flatMap(Self.number) else { return nil }; self = .pinch(scale)
        case "scroll":
            guard let dx = fields["dx"].flatMap(Self.number), let dy = fields["dy"].flatMap(Self.number) else { return nil }
            self = .scroll(dx: dx, dy: dy)
        case "rightClick": self = .rightClick
        case "dragStart": self = .dragStart
        case "dragEnd": self = .dragEnd
        case "systemGesture": guard let gesture = string("gesture") else { return nil }; self = .systemGesture(gesture)
        case "keyPress":
            guard let key = string("key") else { return nil }
            self = .keyPress(key: key, modifiers: fields["modifiers"] as? [String] ?? [])
        case "text": guard let string = string("string") else { return nil }; self = .text(string)
        default: return nil
        }
    }

    private static func number(_ value: Any) -> Double? {
        (value as? NSNumber)?.doubleValue
    }
}
