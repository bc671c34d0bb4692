/// The 5-byte WiFi packet of seeds/connectivity-layer.md:
///
/// | byte | field |
/// |---|---|
/// | 0 | header: 0xAA movement, 0xBB control |
/// | 1 | buttons (as the HID report) |
/// | 2 | dx, int8 clamped to -127…127 |
/// | 3 | dy, int8 clamped to -127…127 |
/// | 4 | wheel, int8 -127…127 |
public struct UDPPacket: Sendable, Hashable {
    public static let length = 5

    public enum Header: UInt8, Sendable, Hashable {
        case movement = 0xAA
        case control = 0xBB
    }

    public var header: Header
    public var buttons: MouseButtons
    public var dx: Int8
    public var dy: Int8
    public var wheel: Int8

    /// Values outside -127…127 are clamped, as the seed's `clampToInt8`.
    public init(header: Header = .movement, buttons: MouseButtons = [], dx: Int, dy: Int, wheel: Int = 0) {
        self.header = header
        self.buttons = buttons
        self.dx = clampToInt8(dx)
        self.dy = clampToInt8(dy)
        self.wheel = clampToInt8(wheel)
    }

    /// A movement broken into as few packets as the int8 fields allow, whose deltas add up exactly to the
    /// requested ones ("large movements are automatically broken into multiple packets").
    public static func movement(dx: Int, dy: Int, wheel: Int = 0, buttons: MouseButtons = []) -> [UDPPacket] {
        var remaining = (dx: dx, dy: dy, wheel: wheel)
        var packets: [UDPPacket] = []
        repeat {
            let packet = UDPPacket(
                header: .movement, buttons: buttons, dx: remaining.dx, dy: remaining.dy, wheel: remaining.wheel)
            remaining.dx -= Int(packet.dx)
            remaining.dy -= Int(packet.dy)
            remaining.wheel -= Int(packet.wheel)
            packets.append(packet)
        } while remaining != (0, 0, 0)
        return packets
    }

    public func encoded() -> [UInt8] {
        [header.rawValue, buttons.rawValue, UInt8(bitPattern: dx), UInt8(bitPattern: dy), UInt8(bitPattern: wheel)]
    }

    /// - Throws: `ProtocolError` for a length other than 5, an unknown header, reserved button bits, or -128.
    public static func decode(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> UDPPacket {
        let b = Array(bytes)
        guard b.count == length else {
            throw ProtocolError(.malformedBinary, payload: "UDP packet", "expected \(length) bytes, found \(b.count)")
        }
        guard let header = Header(rawValue: b[0]) else {
            throw ProtocolError(
                .malformedBinary, payload: "UDP packet",
                "byte 0 (header) 0x\(String(b[0], radix: 16, uppercase: true)) is neither 0xAA (movement) nor 0xBB (control)")
        }
        guard b[1] & MouseButtons.reservedMask == 0 else {
            throw ProtocolError(
                .malformedBinary, payload: "UDP packet",
                "byte 1 (buttons) 0x\(String(b[1], radix: 16)) has reserved bits 3-7 set")
        }
        for (index, name) in [(2, "dx"), (3, "dy"), (4, "wheel")] where b[index] == 0x80 {
            throw ProtocolError(.malformedBinary, payload: "UDP packet", "byte \(index) (\(name)) is -128, outside -127...127")
        }
        return UDPPacket(
            header: header, buttons: MouseButtons(rawValue: b[1]),
            dx: Int(Int8(bitPattern: b[2])), dy: Int(Int8(bitPattern: b[3])), wheel: Int(Int8(bitPattern: b[4])))
    }
}
