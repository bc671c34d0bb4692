import RemoteTouchProtocol

/// The WiFi transport's 5-byte packet (`UDPPacket`). The decoder accepts exactly what the format allows and what
/// it accepts encodes to the same bytes; a movement of any size (up to `maxDelta` on each axis) splits into as
/// few packets as the int8 fields allow, whose deltas add up exactly to it.
public enum UDPFuzz {
    /// The largest |dx|, |dy| or |wheel| a split is tried with: 788 packets.
    public static let maxDelta = 100_000

    public static func run(_ bytes: [UInt8]) {
        packet(bytes)
        movement(bytes)
    }

    /// What the format allows: 5 bytes, header 0xAA or 0xBB, button bits 3–7 clear, no field -128 (0x80).
    static func allowed(_ bytes: [UInt8]) -> Bool {
        bytes.count == UDPPacket.length && (bytes[0] == 0xAA || bytes[0] == 0xBB)
            && bytes[1] & MouseButtons.reservedMask == 0 && !bytes[2...].contains(0x80)
    }

    /// The input as one packet.
    static func packet(_ bytes: [UInt8]) {
        let packet = try? UDPPacket.decode(bytes)
        precondition((packet != nil) == allowed(bytes), "UDP packet \(hex(bytes)): accepted \(packet != nil), allowed \(allowed(bytes))")
        guard let packet else { return }
        precondition(packet.encoded() == bytes, "UDP packet round trip changed \(hex(bytes)) into \(hex(packet.encoded()))")
        precondition(packet.header.rawValue == 0xAA || packet.header.rawValue == 0xBB, "UDP header \(packet.header)")
        precondition(![packet.dx, packet.dy, packet.wheel].contains(.min), "UDP packet \(hex(bytes)) has a field of -128")
    }

    /// The input as a movement (dx, dy, wheel from 3 bytes each, then the buttons) split by `UDPPacket.movement`:
    /// ceil(max(|dx|, |dy|, |wheel|) / 127) packets, at least one; each a movement packet with the buttons, fields
    /// in -127…127, none against the requested direction, and each decodes from its own encoding; together they
    /// add up to the request exactly.
    static func movement(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let request = (dx: input.int(magnitude: maxDelta), dy: input.int(magnitude: maxDelta), wheel: input.int(magnitude: maxDelta))
        let buttons = MouseButtons(rawValue: input.byte() & ~MouseButtons.reservedMask)
        let packets = UDPPacket.movement(dx: request.dx, dy: request.dy, wheel: request.wheel, buttons: buttons)
        let largest = max(abs(request.dx), abs(request.dy), abs(request.wheel))
        let minimum = max(1, (largest + 126) / 127)
        precondition(packets.count == minimum, "\(request) split into \(packets.count) packets, not \(minimum)")
        var sum = (dx: 0, dy: 0, wheel: 0)
        var previous: UDPPacket?
        for packet in packets {
            precondition(packet.header == .movement && packet.buttons == buttons, "\(request): packet \(hex(packet.encoded()))")
            precondition(
                fits(packet.dx, request.dx) && fits(packet.dy, request.dy) && fits(packet.wheel, request.wheel),
                "\(request): packet \(hex(packet.encoded())) has a field of -128 or one against the direction")
            // The round trip once for each different packet: at most 4, as the axes run out one by one.
            if packet != previous {
                precondition((try? UDPPacket.decode(packet.encoded())) == packet, "\(request): packet \(hex(packet.encoded())) does not decode")
                previous = packet
            }
            sum.dx += Int(packet.dx)
            sum.dy += Int(packet.dy)
            sum.wheel += Int(packet.wheel)
        }
        precondition(sum == request, "\(request) split into packets adding up to \(sum)")
    }

    /// A packet's field: -127…127 and not against the requested direction.
    static func fits(_ field: Int8, _ requested: Int) -> Bool {
        field != .min && Int(field).signum() * requested.signum() >= 0
    }
}
