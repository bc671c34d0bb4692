import RemoteTouchProtocol
import Testing

@Suite("Which wire format a payload is (hil decode)")
struct WirePayloadTests {
    @Test("each format's golden bytes decode as that format only, with the product's decoder")
    func detects() throws {
        guard case .decoded(.hid, .report(let report, let input)) = WirePayload.detect([0x01, 0x0A, 0, 0, 0, 0]) else {
            Issue.record("a HID report was not detected as one")
            return
        }
        #expect(report == HIDReport(buttons: .left, dx: 10, dy: 0) && input.dx == 10)
        guard case .decoded(.udp, .packet(_, let movement)) = WirePayload.detect([0xAA, 0, 0x0A, 0xFB, 0]) else {
            Issue.record("a UDP packet was not detected as one")
            return
        }
        #expect(movement.dx == 10 && movement.dy == -5)
        let ping = Array(#"{"type":"ping","timestamp":1}"#.utf8)
        guard case .decoded(.tcp, .frames(let frames)) = WirePayload.detect(NetworkFrame.encode(ping) + NetworkFrame.encode(ping)) else {
            Issue.record("two TCP frames were not detected as such")
            return
        }
        #expect(frames.map(\.count) == [1, 1] && frames[0][0].body == .ping)
        guard case .decoded(.json, .command(.rightClick)) = WirePayload.detect(Array(#"{"rightClick":{}}"#.utf8)) else {
            Issue.record("a JSON command was not detected as one")
            return
        }
    }

    @Test("what no format takes gets each format's reason; a cut or padded TCP stream is refused whole")
    func refusals() throws {
        guard case .refused(let reasons) = WirePayload.detect([0x01, 0x02]) else {
            Issue.record("two bytes decoded")
            return
        }
        #expect(reasons.map(\.0) == WireFormat.allCases)
        #expect(reasons.map(\.1.description) == [
            "command payload: not valid JSON: line 1, column 1: unexpected byte 0x01; expected a value",
            "HID report payload: expected 6 bytes, found 2",
            "UDP packet payload: expected 5 bytes, found 2",
            "TCP frame payload: 2 byte(s): shorter than the 4-byte length header",
        ])
        let frame = NetworkFrame.encode(Array(#"{"type":"ping","timestamp":1}"#.utf8))
        #expect(throws: ProtocolError(.malformedBinary, payload: "TCP frame", "the frame announces 29 bytes after its header and has 28")) {
            try WirePayload.decode(Array(frame.dropLast()), as: .tcp)
        }
        #expect(throws: ProtocolError(.malformedBinary, payload: "TCP frame", "1 byte(s) after 1 whole frame(s): shorter than the 4-byte length header")) {
            try WirePayload.decode(frame + [0], as: .tcp)
        }
        #expect(throws: ProtocolError.self) { try WirePayload.decode([0xBB, 0, 0, 0, 0], as: .udp) }
    }
}
