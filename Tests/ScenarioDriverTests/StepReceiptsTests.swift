import InputCodes
import ScenarioDriver
import Testing

@Suite("Which receipts a step's received count sees")
struct StepReceiptsTests {
    static let ms: UInt64 = 1_000_000
    static func window(_ start: UInt64, _ end: UInt64) -> ScenarioDriver.StepWindow {
        .init(start: MonotonicTime(nanoseconds: start * ms), end: MonotonicTime(nanoseconds: end * ms))
    }

    @Test("a write sent in the step counts though the computer received it after the step's window closed (a busy machine)")
    func lateReceiptOfTheStepsSend() {
        // A right click as two hid reports: the release is sent at 120 ms, the step ends at 121 ms, the computer
        // receives it 21 ms later, while the next step (a wait) runs.
        let sends = [StageBreakdown.Send(at: 100 * Self.ms, payload: "hid 020000000000"),
                     StageBreakdown.Send(at: 120 * Self.ms, payload: "hid 000000000000")]
        let receipts = [StageBreakdown.Receipt(received: 119 * Self.ms, written: [119 * Self.ms], payload: "hid 020000000000"),
                        StageBreakdown.Receipt(received: 141 * Self.ms, written: [141 * Self.ms], payload: "hid 000000000000")]
        let taken = StepReceipts.during(Self.window(90, 121), nextStart: MonotonicTime(nanoseconds: 121 * Self.ms), sends: sends,
                                        receipts: receipts, alignment: StageBreakdown.align(sends, receipts))
        #expect(taken == receipts)
    }

    @Test("the next step's writes are not counted, though they arrive before its own window would have said")
    func nextStepsSendsAreNotCounted() {
        let sends = [StageBreakdown.Send(at: 100 * Self.ms, payload: "a"), StageBreakdown.Send(at: 130 * Self.ms, payload: "b")]
        let receipts = [StageBreakdown.Receipt(received: 105 * Self.ms, written: [105 * Self.ms], payload: "a"),
                        StageBreakdown.Receipt(received: 131 * Self.ms, written: [131 * Self.ms], payload: "b")]
        let taken = StepReceipts.during(Self.window(90, 125), nextStart: nil, sends: sends, receipts: receipts,
                                        alignment: StageBreakdown.align(sends, receipts))
        #expect(taken == [receipts[0]])
    }

    @Test("a receipt no send explains (a forged packet) counts when it came before the next step started, not after")
    func unexplainedReceiptsByTime() {
        let receipts = [StageBreakdown.Receipt(received: 110 * Self.ms, written: nil, payload: "udp aa0005fb00"),
                        StageBreakdown.Receipt(received: 150 * Self.ms, written: nil, payload: "udp aa0005fb00"),
                        StageBreakdown.Receipt(received: 80 * Self.ms, written: nil, payload: "udp aa0005fb00")]
        let taken = StepReceipts.during(Self.window(90, 120), nextStart: MonotonicTime(nanoseconds: 140 * Self.ms), sends: [],
                                        receipts: receipts, alignment: [:])
        #expect(taken == [receipts[0]])
    }
}
