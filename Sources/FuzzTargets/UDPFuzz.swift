import CommandMapping
import RemoteTouchProtocol

/// The WiFi transport's 5-byte packet (`UDPPacket`, taken by the computer through `PointerPayload` and
/// `CommandMapper.pointer`). The decoder accepts exactly what the format allows and what it accepts encodes to
/// the same bytes; the computer takes only movement packets and moves by them without touching the buttons; a
/// movement of any size (up to `maxDelta` on each axis) splits into as few packets as the int8 fields allow,
/// which the computer injects as exactly the requested motion.
package enum UDPFuzz {
    /// The largest |dx|, |dy| or |wheel| a split is tried with: 788 packets.
    package static let maxDelta = 100_000

    package static func run(_ bytes: [UInt8]) {
        packet(bytes)
        movement(bytes)
    }

    /// What the format allows: 5 bytes, header 0xAA or 0xBB, button bits 3–7 clear, no field -128 (0x80).
    static func allowed(_ bytes: [UInt8]) -> Bool {
        bytes.count == UDPPacket.length && (bytes[0] == 0xAA || bytes[0] == 0xBB)
            && bytes[1] & MouseButtons.reservedMask == 0 && !bytes[2...].contains(0x80)
    }

    /// The input as one packet, and as the computer's pointer input: movement packets only (0xAA; 0xBB control
    /// goes over TCP), the buttons byte informational.
    static func packet(_ bytes: [UInt8]) {
        let packet = try? UDPPacket.decode(bytes)
        precondition((packet != nil) == allowed(bytes), "UDP packet \(hex(bytes)): accepted \(packet != nil), allowed \(allowed(bytes))")
        let input = try? PointerPayload.decode(bytes, format: .udp)
        precondition((input != nil) == (packet?.header == .movement), "UDP packet \(hex(bytes)) as pointer input: \(input.map(\.description) ?? "refused")")
        if let input {
            var mapper = CommandMapper()
            let events = PointerEvents(mapping: input, with: &mapper, buttons: false)
            precondition(events.pressed.isEmpty && events.released.isEmpty && mapper.held.isEmpty, "UDP packet \(hex(bytes)) pressed a button")
            precondition(events.hasMotion(of: input), "UDP packet \(hex(bytes)) injected \(events)")
        }
        guard let packet else { return }
        precondition(packet.encoded() == bytes, "UDP packet round trip changed \(hex(bytes)) into \(hex(packet.encoded()))")
        precondition(packet.header.rawValue == 0xAA || packet.header.rawValue == 0xBB, "UDP header \(packet.header)")
        precondition(![packet.dx, packet.dy, packet.wheel].contains(.min), "UDP packet \(hex(bytes)) has a field of -128")
    }

    /// The input as a movement (dx, dy, wheel from 3 bytes each, then the buttons) split by `UDPPacket.movement`:
    /// ceil(max(|dx|, |dy|, |wheel|) / 127) packets, at least one; each a movement packet with the buttons, fields
    /// in -127…127, none against the requested direction; the computer takes each and, together, injects exactly
    /// the requested motion and no button.
    static func movement(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let request = (dx: input.int(magnitude: maxDelta), dy: input.int(magnitude: maxDelta), wheel: input.int(magnitude: maxDelta))
        let buttons = MouseButtons(rawValue: input.byte() & ~MouseButtons.reservedMask)
        let packets = UDPPacket.movement(dx: request.dx, dy: request.dy, wheel: request.wheel, buttons: buttons)
        let largest = max(abs(request.dx), abs(request.dy), abs(request.wheel))
        let minimum = max(1, (largest + 126) / 127)
        precondition(packets.count == minimum, "\(request) split into \(packets.count) packets, not \(minimum)")
        for packet in packets {
            precondition(packet.header == .movement && packet.buttons == buttons, "\(request): packet \(hex(packet.encoded()))")
            precondition(
                fits(packet.dx, request.dx) && fits(packet.dy, request.dy) && fits(packet.wheel, request.wheel),
                "\(request): packet \(hex(packet.encoded())) has a field of -128 or one against the direction")
        }
        // The computer's side once for each different packet (at most 4, as the axes run out one by one): the
        // same packet again moves as much again.
        var mapper = CommandMapper()
        var sum = (dx: 0, dy: 0, wheel: 0)
        for run in runs(packets) {
            let packet = run.element
            guard let input = try? PointerPayload.decode(packet.encoded(), format: .udp) else {
                preconditionFailure("\(request): packet \(hex(packet.encoded())) is refused")
            }
            precondition((try? UDPPacket.decode(packet.encoded())) == packet, "\(request): packet \(hex(packet.encoded())) does not decode")
            let events = PointerEvents(mapping: input, with: &mapper, buttons: false)
            precondition(events.pressed.isEmpty && events.released.isEmpty, "\(request): packet \(hex(packet.encoded())) pressed a button")
            precondition(events.dx == Int(packet.dx) && events.dy == Int(packet.dy) && events.wheel == Int(packet.wheel), "\(request): packet \(hex(packet.encoded())) injected \(events)")
            precondition(events.hasMotion(of: input), "\(request): packet \(hex(packet.encoded())) injected \(events)")
            sum.dx += events.dx * run.count
            sum.dy += events.dy * run.count
            sum.wheel += events.wheel * run.count
        }
        precondition(sum == request, "\(request) split into packets injected as \(sum)")
    }

    /// A packet's field: -127…127 and not against the requested direction.
    static func fits(_ field: Int8, _ requested: Int) -> Bool {
        field != .min && Int(field).signum() * requested.signum() >= 0
    }
}
