import InputCodes
import Records
import Testing
@testable import Evidence

@Suite("A scenario's timeline: what goes on which track")
struct ScenarioEvidenceTests {
    @Test("steps span their window (a failed one flagged), each send, receipt, uinput write and frame is a mark; refused receipts are flagged")
    func tracks() {
        var result = ScenarioResult(file: "s.json", name: "drag", requirements: [], outcome: .failed, steps: [
            StepResult(index: 0, kind: "drag", outcome: .failed, commands: 2, latencyMs: nil, message: "expected BTN_LEFT 0"),
        ], message: "", durationMs: 100)
        result.transport = "ble"
        let evidence = ScenarioEvidence(
            device: "RemoteTouch HIL", frames: [EvdevFrame(frame: InputFrame([.press(.btnLeft)]), time: MonotonicTime(nanoseconds: 1_300))],
            sends: [.init(at: 1_100, payload: #"{"dragStart":{}}"#), .init(at: 1_150, payload: String(repeating: "x", count: 400))],
            receipts: [ReceiptLine(received: 1_200, written: [1_250, 1_260], payload: #"{"dragStart":{}}"#),
                       ReceiptLine(received: 1_210, written: nil, payload: "hid 0000")],
            windows: [0: 1_000...2_000])
        let packet = TraceTimeline.Mark(.packets, at: 1_180, label: "ATT: Rcvd Write Command")
        let timeline = evidence.timeline(result, packets: [packet],
                                         origin: MonotonicTime(nanoseconds: 900))
        func marks(_ track: TraceTimeline.Track) -> [TraceTimeline.Mark] { timeline.marks.filter { $0.track == track } }
        #expect(marks(.steps) == [.init(.steps, at: 1_000, end: 2_000, label: "steps[0] drag failed", flagged: true)])
        #expect(marks(.phone).count == 2)
        #expect(marks(.phone)[1].label.count == ScenarioEvidence.labelLimit + 1, "a long payload is cut")
        #expect(marks(.computer).map(\.flagged) == [false, true])
        #expect(marks(.uinput).map(\.at) == [1_250, 1_260])
        #expect(marks(.evdev).map(\.label) == ["[BTN_LEFT 1]"])
        #expect(marks(.packets).count == 1)
        #expect(timeline.origin == 900)
        #expect(timeline.notes.isEmpty)
        let none = ScenarioEvidence(device: "d", frames: nil).timeline(result, packets: [], origin: MonotonicTime(nanoseconds: 0))
        #expect(none.notes == ["No evdev frames: the computer did not start."])
    }
}
