import RemoteTouchProtocol
import Testing

@Suite("HID report and UDP packet (seeds/connectivity-layer.md)")
struct BinaryFormatTests {
    @Test(
        "HID report golden bytes, both ways",
        arguments: [
            (HIDReport(buttons: [], dx: 0, dy: 0), [0x00, 0x00, 0x00, 0x00, 0x00, 0x00] as [UInt8]),
            (HIDReport(buttons: .left, dx: 10, dy: -5, wheel: 1), [0x01, 0x0A, 0x00, 0xFB, 0xFF, 0x01]),
            (HIDReport(buttons: [.left, .right, .middle], dx: 300, dy: -300, wheel: -127),
             [0x07, 0x2C, 0x01, 0xD4, 0xFE, 0x81]),
            (HIDReport(dx: 32767, dy: -32768, wheel: 127), [0x00, 0xFF, 0x7F, 0x00, 0x80, 0x7F]),
        ])
    func hidGolden(report: HIDReport, bytes: [UInt8]) throws {
        #expect(report.encoded() == bytes)
        #expect(try HIDReport.decode(bytes) == report)
    }

    @Test("HID report clamps out-of-range values")
    func hidClamps() {
        let report = HIDReport(dx: 100_000, dy: -100_000, wheel: -500)
        #expect(report.dx == 32767)
        #expect(report.dy == -32768)
        #expect(report.wheel == -127)
        #expect(HIDReport(dx: 0, dy: 0, wheel: 128).wheel == 127)
    }

    @Test(
        "HID report refuses malformed bytes",
        arguments: [
            ([0x00, 0x00, 0x00, 0x00, 0x00] as [UInt8], "expected 6 bytes, found 5"),
            ([0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], "expected 6 bytes, found 7"),
            ([0x08, 0x00, 0x00, 0x00, 0x00, 0x00], "reserved bits 3-7 set"),
            ([0x00, 0x00, 0x00, 0x00, 0x00, 0x80], "is -128, outside -127...127"),
        ])
    func hidRefuses(bytes: [UInt8], message: String) {
        do {
            _ = try HIDReport.decode(bytes)
            Issue.record("decoded \(bytes)")
        } catch {
            #expect(error.code == .malformedBinary)
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test(
        "UDP packet golden bytes, both ways",
        arguments: [
            (UDPPacket(dx: 10, dy: -5), [0xAA, 0x00, 0x0A, 0xFB, 0x00] as [UInt8]),
            (UDPPacket(header: .control, buttons: .right, dx: 0, dy: 0, wheel: 3), [0xBB, 0x02, 0x00, 0x00, 0x03]),
            (UDPPacket(dx: 127, dy: -127, wheel: -127), [0xAA, 0x00, 0x7F, 0x81, 0x81]),
        ])
    func udpGolden(packet: UDPPacket, bytes: [UInt8]) throws {
        #expect(packet.encoded() == bytes)
        #expect(try UDPPacket.decode(bytes) == packet)
    }

    @Test("UDP packet clamps to -127...127 as the seed's clampToInt8")
    func udpClamps() {
        let packet = UDPPacket(dx: 300, dy: -300, wheel: -128)
        #expect(packet.dx == 127)
        #expect(packet.dy == -127)
        #expect(packet.wheel == -127)
        #expect(clampToInt8(Int(Int16.min)) == -127)
        #expect(clampToInt8(Int(Int16.max)) == 127)
        #expect(clampToInt8(-5) == -5)
    }

    @Test("large movements split into packets that add up exactly", arguments: [(0, 0), (127, -127), (128, 0), (-1000, 333), (5, 900)])
    func udpSplit(dx: Int, dy: Int) {
        let packets = UDPPacket.movement(dx: dx, dy: dy, wheel: 0)
        #expect(packets.reduce(0) { $0 + Int($1.dx) } == dx)
        #expect(packets.reduce(0) { $0 + Int($1.dy) } == dy)
        let needed = max(1, (max(abs(dx), abs(dy)) + 126) / 127)
        #expect(packets.count == needed)
        #expect(packets.allSatisfy { $0.header == .movement })
    }

    @Test(
        "UDP packet refuses malformed bytes",
        arguments: [
            ([0xAA, 0x00, 0x00, 0x00] as [UInt8], "expected 5 bytes, found 4"),
            ([0xAB, 0x00, 0x00, 0x00, 0x00], "neither 0xAA (movement) nor 0xBB (control)"),
            ([0xAA, 0xF0, 0x00, 0x00, 0x00], "reserved bits 3-7 set"),
            ([0xAA, 0x00, 0x80, 0x00, 0x00], "byte 2 (dx) is -128"),
            ([0xAA, 0x00, 0x00, 0x00, 0x80], "byte 4 (wheel) is -128"),
        ])
    func udpRefuses(bytes: [UInt8], message: String) {
        do {
            _ = try UDPPacket.decode(bytes)
            Issue.record("decoded \(bytes)")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }
}
