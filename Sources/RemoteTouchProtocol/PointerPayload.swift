/// The pointer reports of the connectivity layer's transports as the computer takes them: a 6-byte `HIDReport`
/// (hid) or a 5-byte `UDPPacket` (udp), and how a receipt line shows one (`hid 010500000000`,
/// `udp aa0005fb00 from 10.77.0.3:40312`: the transport, the bytes in hex, the sender when it was refused before
/// reaching a session).
public enum PointerPayload {
    /// The format of a pointer report: the hid transport's 6-byte report or the udp transport's 5-byte packet (the
    /// transports themselves are `Transport`, in Scenario).
    public enum Format: String, Sendable, Hashable {
        case hid
        case udp
    }

    /// The pointer input in a report.
    /// - Throws: `ProtocolError` for a malformed report, and for a udp packet that is not movement: a 0xBB control
    ///   packet is refused on UDP (control goes over the TCP control connection: it must not be lost, and a UDP
    ///   packet from the bound address can still be forged).
    public static func decode(_ bytes: [UInt8], format: Format) throws(ProtocolError) -> PointerInput {
        switch format {
        case .hid:
            let report = try HIDReport.decode(bytes)
            return PointerInput(buttons: report.buttons, dx: Int(report.dx), dy: Int(report.dy), wheel: Int(report.wheel))
        case .udp:
            let packet = try UDPPacket.decode(bytes)
            guard packet.header == .movement else {
                throw ProtocolError(.malformedBinary, payload: "UDP packet",
                                    "0xBB control packets are not taken over UDP: clicks, buttons and keys go over the TCP control connection")
            }
            return PointerInput(buttons: packet.buttons, dx: Int(packet.dx), dy: Int(packet.dy), wheel: Int(packet.wheel))
        }
    }

    /// The receipt text of a report.
    public static func text(_ bytes: [UInt8], format: Format, source: String? = nil) -> String {
        "\(format.rawValue) \(hex(Array(bytes.prefix(64))))" + (bytes.count > 64 ? "…" : "") + (source.map { " from \($0)" } ?? "")
    }

    /// The format of the report or packet a receipt's payload text is (`hid 010a00000000`, `udp aa0005fb00 from …`);
    /// nil for anything else (a JSON command).
    public static func format(ofText text: String) -> Format? {
        if text.hasPrefix("hid ") { return .hid }
        if text.hasPrefix("udp ") { return .udp }
        return nil
    }

    /// What a receipt's payload text counts as in a step's `received` expectation: `hidReport`, `udpPacket`; nil
    /// for anything else (a JSON command).
    public static func kind(ofText text: String) -> String? {
        switch format(ofText: text) {
        case .hid: "hidReport"
        case .udp: "udpPacket"
        case nil: nil
        }
    }

    /// Lower-case hex, two digits a byte: how receipts and scenario files write a report's or a packet's bytes.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// The bytes of exactly `count` bytes' worth of hex digits (either case); nil for anything else.
    public static func bytes(hex text: some StringProtocol, count: Int) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == count * 2 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x61...0x66: digit - 0x61 + 10
        case 0x41...0x46: digit - 0x41 + 10
        default: nil
        }
    }
}
