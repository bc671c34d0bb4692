/// One HCI packet as H4 carries it (the UART transport, and both /dev/vhci and btvirt's server sockets): a type
/// byte, then the packet. `bytes` holds the whole of it, type byte included, as it goes on the wire.
package struct H4Packet: Sendable, Hashable, CustomStringConvertible {
    /// The H4 type byte (Core spec Vol 4 Part A, 2).
    package enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        case command = 0x01
        case acl = 0x02
        case sco = 0x03
        case event = 0x04
        case iso = 0x05

        /// The header's size after the type byte, and where in it the payload's length is: commands and SCO carry
        /// one length byte, ACL a 16-bit one, ISO a 14-bit one, events one byte after the event code.
        var header: (size: Int, lengthOffset: Int, lengthBytes: Int, lengthMask: Int) {
            switch self {
            case .command: (3, 2, 1, 0xff)
            case .acl: (4, 2, 2, 0xffff)
            case .sco: (3, 2, 1, 0xff)
            case .event: (2, 1, 1, 0xff)
            case .iso: (4, 2, 2, 0x3fff)
            }
        }
    }

    package var bytes: [UInt8]

    /// A packet from its wire bytes; the caller has checked the type byte and length (`H4Framer` does).
    package init(bytes: [UInt8]) {
        precondition(!bytes.isEmpty && Kind(rawValue: bytes[0]) != nil, "an H4 packet starts with its type byte")
        self.bytes = bytes
    }

    package var kind: Kind { Kind(rawValue: bytes[0])! }

    /// The connection handle (12 bits) of an ACL, SCO or ISO packet; nil for commands and events.
    package var connectionHandle: UInt16? {
        guard kind == .acl || kind == .sco || kind == .iso, bytes.count >= 3 else { return nil }
        return (UInt16(bytes[1]) | UInt16(bytes[2]) << 8) & 0x0fff
    }

    /// An event's code (0x3e: LE Meta); nil for other packets.
    package var eventCode: UInt8? { kind == .event && bytes.count >= 2 ? bytes[1] : nil }

    /// A command's opcode (OGF << 10 | OCF); nil for other packets.
    package var opcode: UInt16? {
        kind == .command && bytes.count >= 3 ? UInt16(bytes[1]) | UInt16(bytes[2]) << 8 : nil
    }

    /// An event's parameters (after the code and length byte); empty for other packets.
    package var eventParameters: ArraySlice<UInt8> { kind == .event ? bytes.dropFirst(3) : [] }

    /// `acl 0x0040 27 bytes`, `event 0x3e 19 bytes`, `command 0x200d 25 bytes`: for logs.
    package var description: String {
        let name = "\(kind)"
        if let handle = connectionHandle { return "\(name) 0x\(hex(handle, 4)) \(bytes.count) bytes" }
        if let code = eventCode { return "\(name) 0x\(hex(UInt16(code), 2)) \(bytes.count) bytes" }
        if let opcode { return "\(name) 0x\(hex(opcode, 4)) \(bytes.count) bytes" }
        return "\(name) \(bytes.count) bytes"
    }
}

/// `value` in lowercase hexadecimal, zero-padded to `digits`.
func hex(_ value: UInt16, _ digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}
