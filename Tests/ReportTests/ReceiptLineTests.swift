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

    @Test("a cut last line and malformed lines are skipped")
    func malformed() {
        let log = "100 110 {\"tap\":{}}\n200 x,y {}\nnot a line\n300 "
        #expect(ReceiptLine.parse(log: log) == [ReceiptLine(received: 100, written: [110], payload: #"{"tap":{}}"#)])
    }
}
