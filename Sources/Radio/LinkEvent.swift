/// What a controller's event says about a link's timing: the four events the radio model reads (Core spec Vol 4
/// Part E, 7.7.5 and 7.7.65.1, .3, .10, .29). Only successful ones: a failed connection or update changes nothing.
package enum LinkEvent: Sendable, Hashable {
    /// LE Connection Complete (0x3e/0x01), LE Enhanced Connection Complete (0x3e/0x0a) or its v2 (0x3e/0x29): the
    /// link exists from now, with this interval (units of 1.25 ms) and supervision timeout (units of 10 ms; 0 when
    /// the event is too short to say).
    case connected(handle: UInt16, intervalUnits: UInt16, timeoutUnits: UInt16 = 0)
    /// LE Connection Update Complete (0x3e/0x03): the link's interval (and supervision timeout) changed.
    case updated(handle: UInt16, intervalUnits: UInt16, timeoutUnits: UInt16 = 0)
    /// Disconnection Complete (0x05).
    case disconnected(handle: UInt16, reason: UInt8)

    /// Reads `packet` when it is one of those events with status 0; nil for anything else (or a short packet).
    package init?(_ packet: H4Packet) {
        guard let code = packet.eventCode else { return nil }
        let p = Array(packet.eventParameters)
        func u16(_ at: Int) -> UInt16 { UInt16(p[at]) | UInt16(p[at + 1]) << 8 }
        func optional16(_ at: Int) -> UInt16 { p.count >= at + 2 ? u16(at) : 0 }
        switch code {
        case 0x05:
            // status, handle (2), reason
            guard p.count >= 4, p[0] == 0 else { return nil }
            self = .disconnected(handle: u16(1) & 0x0fff, reason: p[3])
        case 0x3e:
            guard p.count >= 2, p[1] == 0 else { return nil }
            switch p[0] {
            case 0x01:
                // subevent, status, handle (2), role, peer address type, peer address (6), interval (2), latency (2),
                // supervision timeout (2), …
                guard p.count >= 14 else { return nil }
                self = .connected(handle: u16(2) & 0x0fff, intervalUnits: u16(12), timeoutUnits: optional16(16))
            case 0x0a, 0x29:
                // … peer address (6), local RPA (6), peer RPA (6), interval (2), …; v2 adds handles at the end.
                guard p.count >= 26 else { return nil }
                self = .connected(handle: u16(2) & 0x0fff, intervalUnits: u16(24), timeoutUnits: optional16(28))
            case 0x03:
                // subevent, status, handle (2), interval (2), latency (2), supervision timeout (2)
                guard p.count >= 6 else { return nil }
                self = .updated(handle: u16(2) & 0x0fff, intervalUnits: u16(4), timeoutUnits: optional16(8))
            default:
                return nil
            }
        default:
            return nil
        }
    }

    package var handle: UInt16 {
        switch self {
        case .connected(let handle, _, _), .updated(let handle, _, _), .disconnected(let handle, _): handle
        }
    }

    /// The Disconnection Complete a controller sends its host when a link ends: status 0, `handle`, `reason`.
    package static func disconnectionComplete(handle: UInt16, reason: UInt8) -> H4Packet {
        H4Packet(bytes: [0x04, 0x05, 0x04, 0x00, UInt8(handle & 0xff), UInt8(handle >> 8), reason])
    }

    /// HCI Disconnect (0x0406) of `handle` with `reason`, as a host sends it.
    package static func disconnect(handle: UInt16, reason: UInt8) -> H4Packet {
        H4Packet(bytes: [0x01, 0x06, 0x04, 0x03, UInt8(handle & 0xff), UInt8(handle >> 8), reason])
    }

    /// The opcode a Command Status (0x0f) answers, and its status; nil for any other packet.
    package static func commandStatus(_ packet: H4Packet) -> (opcode: UInt16, status: UInt8)? {
        // 0x04 0x0f 0x04 status, commands allowed, opcode (2)
        guard packet.eventCode == 0x0f, packet.bytes.count >= 7 else { return nil }
        return (UInt16(packet.bytes[5]) | UInt16(packet.bytes[6]) << 8, packet.bytes[3])
    }

    /// A Disconnection Complete's status, handle and reason, whatever its status; nil for any other packet.
    package static func disconnection(_ packet: H4Packet) -> (status: UInt8, handle: UInt16, reason: UInt8)? {
        guard packet.eventCode == 0x05, packet.bytes.count >= 7 else { return nil }
        return (packet.bytes[3], (UInt16(packet.bytes[4]) | UInt16(packet.bytes[5]) << 8) & 0x0fff, packet.bytes[6])
    }
}

/// The controller's ACL buffer count as the host reads it, which the bridge raises in the connection-events model.
///
/// btvirt's controllers report one LE ACL buffer (emulator/btdev.c: `acl_max_pkt = 1`) and answer each ACL packet
/// with Number of Completed Packets at once. With packets held until a connection event, one buffer would let the
/// host hand over a single packet per event; a real controller has several and completes them as they are
/// acknowledged. The bridge therefore reports `buffers` in the Command Complete of LE Read Buffer Size (0x2002, v1
/// and v2 0x2060), and btvirt's Number of Completed Packets for each packet, sent when the bridge releases it, then
/// returns the host's credits at the connection event, as a real controller's would.
package enum BufferCount {
    /// Returns `packet` with its LE ACL buffer count set to `buffers` when it is a successful Command Complete of LE
    /// Read Buffer Size (v1 or v2) that reports LE buffers of its own (a count of 0 means "use the BR/EDR buffers",
    /// which the bridge leaves alone); nil for any other packet.
    package static func raised(_ packet: H4Packet, to buffers: UInt8) -> H4Packet? {
        // 0x04 0x0e length, commands allowed, opcode (2), status, LE ACL length (2), LE ACL count, …
        guard packet.eventCode == 0x0e, packet.bytes.count >= 10 else { return nil }
        let opcode = UInt16(packet.bytes[4]) | UInt16(packet.bytes[5]) << 8
        guard opcode == 0x2002 || opcode == 0x2060, packet.bytes[6] == 0, packet.bytes[9] != 0 else { return nil }
        var bytes = packet.bytes
        bytes[9] = buffers
        return H4Packet(bytes: bytes)
    }
}
