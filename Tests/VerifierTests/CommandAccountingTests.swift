import InputCodes
import Records
import Testing
@testable import Verifier

/// The accounting oracle on made-up runs: a computer that did what docs/protocol.md says passes, and each kind of
/// fault a computer can have is named with its step.
@Suite("CommandAccounting: every command sent, received, taken or refused as the doc says, and exactly its frames")
struct CommandAccountingTests {
    /// A run being made up: writes sent, received and what each wrote, at milliseconds from 0.
    struct Run {
        var sends: [AccountingRecord.Sent] = []
        var receipts: [ReceiptLine] = []
        var frames: [EvdevFrame] = []
        var events: [(at: UInt64, step: Int, event: AccountingRecord.Event)] = []
        var paired = true

        static func ns(_ ms: Double) -> UInt64 { UInt64(ms * 1_000_000) }

        /// The phone sends `payload` at `ms`; the computer receives it 5 ms later and writes `frames` 0.1 ms apart (nil: refuses it).
        mutating func write(_ payload: String, at ms: Double, step: Int = 0, frames: [[InputEvent]]?, received: Bool = true) {
            sends.append(.init(at: Self.ns(ms), payload: payload, step: step))
            guard received else { return }
            let times = frames?.indices.map { Self.ns(ms + 5.2 + Double($0) / 10) }
            receipts.append(ReceiptLine(received: Self.ns(ms + 5), written: times, payload: payload))
            for (index, events) in (frames ?? []).enumerated() {
                self.frames.append(EvdevFrame(frame: InputFrame(events), time: MonotonicTime(nanoseconds: times![index] - 1000)))
            }
        }

        mutating func device(_ events: [InputEvent], at ms: Double) {
            frames.append(EvdevFrame(frame: InputFrame(events), time: MonotonicTime(nanoseconds: Self.ns(ms))))
        }

        func problems() -> [AccountingProblem] {
            CommandAccounting(AccountingRecord(sends: sends, receipts: receipts, frames: frames, events: events, pairedFromStart: paired),
                              origin: 0).problems()
        }
    }

    static let move10 = #"{"cursorMove":{"delta":[10,0]}}"#

    @Test("moves, fractions carried, a tap, a drag and keys as the doc says: nothing to report")
    func faithful() {
        var run = Run()
        run.write(#"{"modeChange":{"mode":"presentation"}}"#, at: 0, frames: [])
        run.write(#"{"cursorMove":{"delta":[0.4,-3]}}"#, at: 10, frames: [[InputEvent(.relY, -3)]])
        run.write(#"{"cursorMove":{"delta":[0.4,0]}}"#, at: 26, frames: [[InputEvent(.relX, 1)]])
        run.write(#"{"tap":{"type":"double"}}"#, at: 40, frames: [[.press(.btnLeft)], [.release(.btnLeft)], [.press(.btnLeft)], [.release(.btnLeft)]])
        run.write(#"{"button":{"action":"back"}}"#, at: 60, step: 1, frames: [[.press(.keyLeft)], [.release(.keyLeft)]])
        run.write(#"{"keyPress":{"key":"c","modifiers":["command","shift"]}}"#, at: 80, step: 1,
                  frames: [[.press(.keyLeftMeta)], [.press(.keyLeftShift)], [.press(EventCode(name: "KEY_C")!)],
                           [.release(EventCode(name: "KEY_C")!)], [.release(.keyLeftShift)], [.release(.keyLeftMeta)]])
        run.write(#"{"scroll":{"dx":0,"dy":9.95}}"#, at: 100, step: 2, frames: [[InputEvent(.relWheelHiRes, 119)]])
        run.write(#"{"scroll":{"dx":0,"dy":0.1}}"#, at: 116, step: 2, frames: [[InputEvent(.relWheel, 1), InputEvent(.relWheelHiRes, 2)]])
        run.write("hid 010a00000000", at: 130, step: 3, frames: [[.press(.btnLeft), InputEvent(.relX, 10)]])
        run.write("hid 000000000000", at: 146, step: 3, frames: [[.release(.btnLeft)]])
        #expect(run.problems().isEmpty)
    }

    @Test("a move that maps to nothing fails its step, naming the command, the frame instead and the totals")
    func droppedMove() throws {
        var run = Run()
        for index in 0..<5 {
            run.write(Self.move10, at: Double(index) * 16, step: index < 3 ? 0 : 1, frames: index == 3 ? [] : [[InputEvent(.relX, 10)]])
        }
        let problems = run.problems()
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.step == 1)
        #expect(problem.text.contains("none came for [REL_X 10] from \(Self.move10) received at +0.069 s"))
        #expect(problem.text.contains("showed 4 frame(s) where docs/protocol.md gives 5"))
        #expect(problem.text.contains("over the scenario REL_X 40, expected 50"))
    }

    @Test("a key pressed and never released, a wrong key, a press too many: each the first frame that parts from the doc")
    func wrongKeys() {
        var held = Run()
        held.write(#"{"mediaControl":{"action":"volumeUp"}}"#, at: 0, frames: [[.press(.keyVolumeUp)]])
        #expect(held.problems().first?.text.contains("none came for [KEY_VOLUMEUP 0]") == true)
        var wrong = Run()
        wrong.write(#"{"mediaControl":{"action":"volumeUp"}}"#, at: 0, frames: [[.press(.keyVolumeDown)], [.release(.keyVolumeDown)]])
        #expect(wrong.problems().first?.text.contains("expected [KEY_VOLUMEUP 1]") == true)
        #expect(wrong.problems().first?.text.contains("got [KEY_VOLUMEDOWN 1]") == true)
        var extra = Run()
        extra.write(#"{"rightClick":{}}"#, at: 0, frames: [[.press(.btnRight)], [.release(.btnRight)], [.press(.btnRight)], [.release(.btnRight)]])
        #expect(extra.problems().first?.text.contains("which no write the computer took explains") == true)
    }

    @Test("a write that never arrived fails the step that sent it; what a dropped link lost in flight does not")
    func lostWrites() {
        var lost = Run()
        lost.write(Self.move10, at: 0, frames: [[InputEvent(.relX, 10)]])
        lost.write(Self.move10, at: 16, step: 1, frames: nil, received: false)
        lost.write(Self.move10, at: 32, step: 1, frames: [[InputEvent(.relX, 10)]])
        let problems = lost.problems()
        #expect(problems.count == 1)
        #expect(problems.first?.step == 1)
        #expect(problems.first?.text.contains("1 of the 2 write(s) the phone sent in this step never reached the computer") == true)

        var dropped = Run()
        dropped.write(#"{"dragStart":{}}"#, at: 0, frames: [[.press(.btnLeft)]])
        dropped.write(#"{"dragMove":{"delta":[4,0]}}"#, at: 16, frames: [[InputEvent(.relX, 4)]])
        dropped.write(#"{"dragMove":{"delta":[4,0]}}"#, at: 32, frames: nil, received: false)
        dropped.write(#"{"dragMove":{"delta":[4,0]}}"#, at: 48, frames: nil, received: false)
        dropped.events = [(Run.ns(60), 1, .linkDown)]
        dropped.device([.release(.btnLeft)], at: 70)
        #expect(dropped.problems().isEmpty)

        var notTail = dropped
        notTail.write(#"{"dragMove":{"delta":[5,0]}}"#, at: 55, frames: [[InputEvent(.relX, 5)]])
        notTail.sends.sort { $0.at < $1.at }
        notTail.frames.sort { $0.time < $1.time }
        #expect(notTail.problems().contains { $0.text.contains("never reached the computer") })
    }

    @Test("a held button must be released when the link goes, and only then")
    func releaseOnDrop() {
        var kept = Run()
        kept.write(#"{"dragStart":{}}"#, at: 0, frames: [[.press(.btnLeft)]])
        kept.events = [(Run.ns(50), 1, .linkDown)]
        let problem = kept.problems().first
        #expect(problem?.step == 1)
        #expect(problem?.text.contains("none came for [BTN_LEFT 0] from the link going down at +0.050 s") == true)
    }

    @Test("refusals: a paired phone's command refused, an unpaired phone's taken, an untypeable text taken")
    func refusals() {
        var refused = Run()
        refused.write(#"{"tap":{"type":"single"}}"#, at: 0, frames: nil)
        #expect(refused.problems().first?.text.contains("the computer refused {\"tap\":{\"type\":\"single\"}}") == true)

        var unpaired = Run()
        unpaired.paired = false
        unpaired.write(#"{"tap":{"type":"single"}}"#, at: 0, frames: nil)
        unpaired.events = [(Run.ns(100), 1, .paired)]
        unpaired.write(#"{"rightClick":{}}"#, at: 110, step: 1, frames: [[.press(.btnRight)], [.release(.btnRight)]])
        #expect(unpaired.problems().isEmpty)
        unpaired.write(#"{"rightClick":{}}"#, at: 20, frames: [[.press(.btnRight)], [.release(.btnRight)]])
        unpaired.sends.sort { $0.at < $1.at }
        unpaired.frames.sort { $0.time < $1.time }
        #expect(unpaired.problems().contains { $0.text.contains("expected it refused: the phone was not paired") })

        var text = Run()
        text.write(#"{"text":{"string":"café"}}"#, at: 0, frames: [])
        #expect(text.problems().first?.text.contains("it cannot be typed on a US layout") == true)
    }

    @Test("order: a write applied before one sent earlier; udp movement and control may cross")
    func order() {
        var run = Run()
        run.write(#"{"dragStart":{}}"#, at: 0, frames: [[.press(.btnLeft)]])
        run.write(#"{"dragMove":{"delta":[4,0]}}"#, at: 16, frames: [[InputEvent(.relX, 4)]])
        run.write(#"{"dragEnd":{}}"#, at: 17, frames: [[.release(.btnLeft)]])
        // The move applied after the release (its write time moved past it).
        run.receipts[1].written = [Run.ns(30)]
        run.frames = [run.frames[0], run.frames[2], EvdevFrame(frame: InputFrame([InputEvent(.relX, 4)]), time: MonotonicTime(nanoseconds: Run.ns(30) - 1000))]
        #expect(run.problems().contains { $0.text.contains("the computer applied {\"dragEnd\":{}} (sent at +0.017 s) before {\"dragMove\"") })
        var udp = Run()
        udp.write(#"{"dragStart":{}}"#, at: 0, frames: [[.press(.btnLeft)]])
        udp.write("udp aa00040000", at: 1, frames: [[InputEvent(.relX, 4)]])
        udp.receipts[1].written = [Run.ns(2)]
        udp.frames[1].time = MonotonicTime(nanoseconds: Run.ns(2) - 1000)
        udp.frames.sort { $0.time < $1.time }
        udp.receipts.sort { $0.received < $1.received }
        #expect(!udp.problems().contains { $0.text.contains("applied") })
    }

    @Test("udp movement the network reordered is judged in the order it arrived; applied out of that order it fails")
    func udpReordered() {
        /// A sent at 0 ms and B at 1 ms; the network hands B over first (received 6, A at 8), each applied when received
        /// unless `applied` says otherwise.
        func run(applied: (a: Double, b: Double)) -> [AccountingProblem] {
            var run = Run()
            run.sends = [.init(at: Run.ns(0), payload: "udp aa00040000", step: 0), .init(at: Run.ns(1), payload: "udp aa00f60000", step: 0)]
            run.receipts = [ReceiptLine(received: Run.ns(6), written: [Run.ns(applied.b)], payload: "udp aa00f60000"),
                            ReceiptLine(received: Run.ns(8), written: [Run.ns(applied.a)], payload: "udp aa00040000")]
            run.frames = [EvdevFrame(frame: InputFrame([InputEvent(.relX, -10)]), time: MonotonicTime(nanoseconds: Run.ns(applied.b) - 1000)),
                          EvdevFrame(frame: InputFrame([InputEvent(.relX, 4)]), time: MonotonicTime(nanoseconds: Run.ns(applied.a) - 1000))]
            run.frames.sort { $0.time < $1.time }
            return run.problems()
        }
        #expect(!run(applied: (a: 8.2, b: 6.2)).contains { $0.text.contains("applied") }, "\(run(applied: (a: 8.2, b: 6.2)))")
        let late = run(applied: (a: 8.2, b: 9.0))
        #expect(late.contains { $0.text.hasPrefix("the computer applied udp aa00040000 (received at +0.008 s) before udp aa00f60000 (received earlier, at +0.006 s): udp movement must be applied in the order it arrives") }, "\(late)")
    }

    @Test("a restarted computer starts afresh: basic mouse mode, no remainders, nothing held")
    func restart() {
        var run = Run()
        run.write(#"{"modeChange":{"mode":"presentation"}}"#, at: 0, frames: [])
        run.write(#"{"cursorMove":{"delta":[0.4,0]}}"#, at: 10, frames: [])
        run.events = [(Run.ns(20), 1, .computerRestarted)]
        run.write(#"{"cursorMove":{"delta":[0.4,0]}}"#, at: 30, step: 1, frames: [])
        run.write(#"{"button":{"action":"back"}}"#, at: 50, step: 1, frames: [[.press(.keyLeftMeta)], [.press(.keyLeft)], [.release(.keyLeft)], [.release(.keyLeftMeta)]])
        #expect(run.problems().isEmpty)
    }

    @Test("a tcp batch's writes share their received time: a button then a mode change are applied in the receipts' order")
    func batch() {
        var run = Run()
        run.write(#"{"modeChange":{"mode":"presentation"}}"#, at: 0, frames: [])
        run.sends.append(.init(at: Run.ns(10), payload: #"{"button":{"action":"forward"}}"#, step: 0))
        run.sends.append(.init(at: Run.ns(11), payload: #"{"modeChange":{"mode":"mediaControl"}}"#, step: 1))
        // One frame read at 15 ms: both received then; the button's key written at 15.2 ms, the mode change writes nothing.
        run.receipts.append(ReceiptLine(received: Run.ns(15), written: [Run.ns(15.2), Run.ns(15.3)], payload: #"{"button":{"action":"forward"}}"#))
        run.receipts.append(ReceiptLine(received: Run.ns(15), written: [], payload: #"{"modeChange":{"mode":"mediaControl"}}"#))
        run.device([.press(.keyRight)], at: 15.19)
        run.device([.release(.keyRight)], at: 15.29)
        #expect(run.problems().isEmpty, "\(run.problems())")
    }

    @Test("udp movement may be lost while the network loses packets, and only udp movement")
    func networkLoss() {
        var run = Run()
        run.events = [(Run.ns(1), 0, .networkLoss(true))]
        run.write("udp aa00040000", at: 10, frames: nil, received: false)
        run.write(#"{"tap":{"type":"single"}}"#, at: 20, frames: nil, received: false)
        let problems = run.problems()
        #expect(problems.count == 1)
        #expect(problems.first?.text.contains("{\"tap\"") == true)
    }

    @Test("the kernel passes no zero motion, no press of a key already down, no empty frame")
    func kernelView() {
        var kernel = KernelView()
        let passed = kernel.pass([[.press(.btnLeft)], [.press(.btnLeft), InputEvent(.relX, 0)], [InputEvent(.relY, 2)], [.release(.btnLeft)], [.release(.btnLeft)]])
        #expect(passed == [[.press(.btnLeft)], [InputEvent(.relY, 2)], [.release(.btnLeft)]])
    }

    @Test("pinch and scroll remainders and notches, as the doc's worked examples")
    func wheelExamples() {
        var computer = ContractComputer()
        // docs/protocol.md: a pinch of 0.5 is -872.705 units: -873 with REL_WHEEL -7; a second gives -872 and -7.
        #expect(computer.frames(for: .command(.pinch(0.5)))[1] == [InputEvent(.relWheel, -7), InputEvent(.relWheelHiRes, -873)])
        #expect(computer.frames(for: .command(.pinch(0.5)))[1] == [InputEvent(.relWheel, -7), InputEvent(.relWheelHiRes, -872)])
        // Three scrolls of dy 0.05 emit 1, nothing, 1; a fourth of 9.9 emits 119 with REL_WHEEL 1.
        var scroll = ContractComputer()
        let units = [0.05, 0.05, 0.05, 9.9].map { scroll.frames(for: .command(.scroll(dx: 0, dy: $0))) }
        #expect(units == [[[InputEvent(.relWheelHiRes, 1)]], [], [[InputEvent(.relWheelHiRes, 1)]], [[InputEvent(.relWheel, 1), InputEvent(.relWheelHiRes, 119)]]])
    }

    @Test("payloads are read by the document's rules, not the computer's decoder")
    func payloads() {
        #expect(ContractPayload(text: "hid 01fffffeff81") == .report(buttons: 1, dx: -1, dy: -2, wheel: -127))
        #expect(ContractPayload(text: "udp aa0005fb00") == .packet(dx: 5, dy: -5, wheel: 0))
        #expect(ContractPayload(text: "udp bb0005fb00") == nil)
        #expect(ContractPayload(text: #"{"cursorMove":{"delta":[1.5,-2]}}"#) == .command(.move(dx: 1.5, dy: -2)))
        #expect(ContractPayload(text: #"{"nosuch":{}}"#) == nil)
        #expect(ContractPayload.matchKey("udp aa0005fb00 from 10.77.0.3:4000") == "udp aa0005fb00")
    }
}
