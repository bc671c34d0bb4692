import HILTestSupport
import Records
import Testing

@Suite("The receipts log's line format (ReceiptLine)")
struct ReceiptLineTests {
    @Test("lines round-trip: frames written, a command with no frame, a refusal")
    func roundTrip() {
        let lines = [
            ReceiptLine(received: 100, written: [110, 120], payload: #"{"tap":{"type":"single"}}"#),
            ReceiptLine(received: 200, written: [], payload: #"{"modeChange":{"mode":"presentation"}}"#),
            ReceiptLine(received: 300, written: nil, payload: #"{"tap":"#),
        ]
        #expect(lines.map(\.text) == [
            #"100 110,120 {"tap":{"type":"single"}}"#, #"200 none {"modeChange":{"mode":"presentation"}}"#, #"300 - {"tap":"#,
        ])
        #expect(ReceiptLine.parse(log: lines.map { $0.text + "\n" }.joined()) == lines)
    }

    @Test("a hostile payload stays on one line (newlines and tabs become spaces) and is cut at 600 bytes")
    func hostile() {
        let line = ReceiptLine(received: 1, written: nil, payload: Array("a\nb\tc\r\n".utf8) + [UInt8](repeating: 0x41, count: 1000))
        #expect(!line.text.contains("\n") && !line.text.contains("\t"))
        #expect(line.payload.hasPrefix("a b c"))
        #expect(line.payload.utf8.count <= ReceiptLine.payloadLimit)
        #expect(ReceiptLine.parse(log: line.text + "\n") == [line])
    }

    @Test("any payload is kept as its text with every newline and tab a space, printable ASCII as it is")
    func anyPayload() {
        var random = SplitMix64(seed: 39)
        let pieces: [[UInt8]] = [Array(#"{"cursorMove":{"delta":[10,-3]}}"#.utf8), Array("\r\n".utf8), [0x09], [0x0B], [0x0C], [0x0D],
                                 Array("é\u{2028}\u{85}".utf8), [0xFF], [0x00], [0x7F], Array("hid 010a00000000".utf8)]
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
            let text = String(decoding: bytes.prefix(ReceiptLine.payloadLimit), as: UTF8.self)
            let line = ReceiptLine(received: 1, written: nil, payload: bytes)
            #expect(line.payload == String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }), "\(bytes)")
        }
        #expect(ReceiptLine(received: 1, written: nil, payload: Array(#"{"tap":{"type":"single"}}"#.utf8)).payload == #"{"tap":{"type":"single"}}"#)
    }

    @Test("a cut last line and malformed lines are skipped")
    func malformed() {
        let log = "100 110 {\"tap\":{}}\n200 x,y {}\nnot a line\n300 "
        #expect(ReceiptLine.parse(log: log) == [ReceiptLine(received: 100, written: [110], payload: #"{"tap":{}}"#)])
    }
}
