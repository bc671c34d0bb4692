import Records
import ScenarioDriver
import Testing

@Suite("Latency stages from the phone's sends and the computer's receipts")
struct StageBreakdownTests {
    static let ms: UInt64 = 1_000_000

    @Test("the receipts log is read; a cut last line and refusals are handled")
    func readsReceipts() {
        let receipts = ReceiptLine.parse(log: """
            1000 2000,3000 {"tap":{"type":"single"}}
            4000 - {"broken
            5000 6000 {"cursorMove":{"delta":[1,0]}} with spaces
            70
            """)
        #expect(receipts == [
            .init(received: 1000, written: [2000, 3000], payload: #"{"tap":{"type":"single"}}"#),
            .init(received: 4000, written: nil, payload: #"{"broken"#),
            .init(received: 5000, written: [6000], payload: #"{"cursorMove":{"delta":[1,0]}} with spaces"#),
        ])
    }

    @Test("a swipe's stages: its own span, then link, peripheral and kernel of the completing command, adding up")
    func swipe() throws {
        let sends = (0..<5).map { StageBreakdown.Send(at: UInt64($0) * 16 * Self.ms, payload: "move \($0)") }
        let receipts = sends.map {
            StageBreakdown.Receipt(received: $0.at + 8 * Self.ms, written: [$0.at + 10 * Self.ms], payload: $0.payload)
        }
        let alignment = StageBreakdown.align(sends, receipts)
        #expect(alignment.count == 5)
        // The frame of the last move completed the step; evdev stamps it 20 µs before the write returned.
        let completed = sends[4].at + 10 * Self.ms - 20_000
        let stages = try #require(StageBreakdown.stages(firstSend: 0, completed: completed, sends: sends, receipts: receipts, alignment: alignment))
        #expect(stages.gesture == 64)
        #expect(stages.link == 8)
        #expect(stages.peripheral == 2)
        #expect(abs(stages.kernel - -0.02) < 1e-9)
        #expect(abs(stages.values.reduce(0, +) - Double(completed) / 1e6) < 1e-9)
    }

    @Test("a write lost on the way is skipped, not shifted onto the next command")
    func lostWrite() {
        let sends = ["a", "b", "c", "d"].enumerated().map { StageBreakdown.Send(at: UInt64($0.offset), payload: $0.element) }
        let receipts = ["a", "c", "d"].map { StageBreakdown.Receipt(received: 10, written: [11], payload: $0) }
        #expect(StageBreakdown.align(sends, receipts) == [0: 0, 2: 1, 3: 2])
    }

    @Test("receipts out of order (some writes over D-Bus, some through the socket) still match their sends")
    func reordered() {
        let sends = [StageBreakdown.Send(at: 0, payload: "a"), .init(at: 1, payload: "b"), .init(at: 2, payload: "a")]
        let receipts = [StageBreakdown.Receipt(received: 10, written: [11], payload: "b"),
                        .init(received: 12, written: [13], payload: "a"), .init(received: 14, written: [15], payload: "a")]
        #expect(StageBreakdown.align(sends, receipts) == [0: 1, 1: 0, 2: 2])
        // A receipt from before a send is never its receipt.
        #expect(StageBreakdown.align([.init(at: 20, payload: "a")], receipts) == [:])
    }

    @Test("no stages when no received command wrote the completing frame")
    func unmatched() {
        let sends = [StageBreakdown.Send(at: 0, payload: "x")]
        let receipts = [StageBreakdown.Receipt(received: 5 * Self.ms, written: nil, payload: "x")]
        #expect(StageBreakdown.stages(firstSend: 0, completed: 6 * Self.ms, sends: sends, receipts: receipts,
                                      alignment: StageBreakdown.align(sends, receipts)) == nil)
    }
}
