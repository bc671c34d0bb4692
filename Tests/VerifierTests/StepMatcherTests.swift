import InputCodes
import Testing
import Verifier

private let sent = MonotonicTime(nanoseconds: 10_000_000_000)

/// A frame `ms` after the send time.
private func frame(_ ms: Double, _ events: InputEvent...) -> EvdevFrame {
    EvdevFrame(frame: InputFrame(events), time: MonotonicTime(nanoseconds: sent.nanoseconds + UInt64(ms * 1_000_000)))
}

private func key(_ name: String, _ value: Int32) -> InputEvent { InputEvent(EventCode(name: name)!, value) }

private func run(_ expectation: StepExpectation, _ frames: [EvdevFrame]) -> StepVerdict {
    var matcher = StepMatcher(expectation, sentAt: sent)
    for frame in frames { matcher.feed(frame) }
    return matcher.verdict()
}

private func keys(_ events: [InputEvent], within: Double = 200, nothingElse: Bool = false) -> StepExpectation {
    var expectation = StepExpectation(withinMs: within)
    expectation.keys = events
    expectation.nothingElse = nothingElse
    return expectation
}

private func motion(_ checks: [EventCode: MotionCheck], within: Double = 300, nothingElse: Bool = false) -> StepExpectation {
    var expectation = StepExpectation(withinMs: within)
    expectation.motion = checks
    expectation.nothingElse = nothingElse
    return expectation
}

@Suite("Verifier: steps that should pass")
struct StepMatcherPassTests {
    @Test("an exact key sequence passes, with the completing frame's latency")
    func keySequence() {
        let verdict = run(keys([key("KEY_RIGHT", 1), key("KEY_RIGHT", 0)]), [frame(8, key("KEY_RIGHT", 1)), frame(9.5, key("KEY_RIGHT", 0))])
        #expect(verdict.outcome == .passed, "\(verdict.message)")
        #expect(verdict.latency == .microseconds(9500))
    }

    @Test("motion adds up across frames within the tolerance; the latency is when it first did")
    func motionTotals() {
        let frames = [frame(10, InputEvent(.relX, 60)), frame(26, InputEvent(.relX, 59), InputEvent(.relY, 1)), frame(42, InputEvent(.relX, 0))]
        let verdict = run(motion([.relX: .total(120, tolerance: 2), .relY: .total(0, tolerance: 2)]), frames)
        #expect(verdict.outcome == .passed, "\(verdict.message)")
        #expect(verdict.latency == .milliseconds(26))
    }

    @Test("frames match as sets within a frame, in order across frames")
    func framesAsSets() {
        var expectation = StepExpectation(withinMs: 100)
        expectation.frames = [InputFrame([InputEvent(.relX, 10), InputEvent(.relY, -5)]), InputFrame([.press(.btnLeft)])]
        let verdict = run(expectation, [frame(5, InputEvent(.relY, -5), InputEvent(.relX, 10)), frame(6, .press(.btnLeft))])
        #expect(verdict.outcome == .passed, "\(verdict.message)")
    }

    @Test("autorepeat is allowed when asked")
    func repeatAllowed() {
        var expectation = keys([key("KEY_RIGHT", 1), key("KEY_RIGHT", 0)])
        expectation.allowRepeat = true
        let verdict = run(expectation, [frame(1, key("KEY_RIGHT", 1)), frame(30, key("KEY_RIGHT", 2)), frame(31, key("KEY_RIGHT", 0))])
        #expect(verdict.outcome == .passed, "\(verdict.message)")
    }

    @Test("an absence step passes on silence")
    func absence() {
        var expectation = StepExpectation(withinMs: 300)
        expectation.absentTypes = [.key, .rel]
        expectation.absentForMs = 300
        #expect(run(expectation, []).outcome == .passed)
    }

    @Test("direction checks", arguments: [(MotionCheck.Direction.positive, Int32(5)), (.negative, Int32(-3)), (.zero, Int32(0))])
    func directions(direction: MotionCheck.Direction, value: Int32) {
        let frames = value == 0 ? [frame(1, InputEvent(.relY, 4))] : [frame(1, InputEvent(.relX, value))]
        #expect(run(motion([.relX: .direction(direction)]), frames).outcome == .passed)
    }
}

/// Deliberately wrong expectations: each must fail, and say why. A verifier that passed these would be vacuous.
@Suite("Verifier: wrong expectations fail, each with the reason")
struct StepMatcherMutantTests {
    @Test("wrong key")
    func wrongKey() {
        let verdict = run(keys([key("KEY_LEFT", 1), key("KEY_LEFT", 0)]), [frame(8, key("KEY_RIGHT", 1)), frame(9, key("KEY_RIGHT", 0))])
        #expect(verdict.outcome == .failed)
        // The most specific line first, with its time: it is the one CI shows (junit's message, summary.md, run -q).
        #expect(verdict.message.split(separator: "\n").first == "key event 1: expected KEY_LEFT 1, got KEY_RIGHT 1 at +8 ms",
                "\(verdict.message)")
        #expect(verdict.message.split(separator: "\n").dropFirst().first == "not met within 200 ms", "\(verdict.message)")
        #expect(verdict.message.contains("expected: KEY_LEFT 1, KEY_LEFT 0 within 200 ms"))
        #expect(verdict.message.contains("actual:   +8 ms [KEY_RIGHT 1]"))
    }

    @Test("wrong direction")
    func wrongDirection() {
        let verdict = run(motion([.relY: .direction(.negative)]), [frame(5, InputEvent(.relY, 12))])
        #expect(verdict.outcome == .failed)
        #expect(verdict.message.contains("REL_Y total 12, expected negative"), "\(verdict.message)")
    }

    @Test("motion outside the tolerance, short and overshooting")
    func outsideTolerance() {
        let short = run(motion([.relX: .total(120, tolerance: 2)]), [frame(5, InputEvent(.relX, 100))])
        #expect(short.outcome == .failed)
        #expect(short.message.contains("REL_X total 100, expected 120 ± 2"), "\(short.message)")
        // Met at 120, then more motion: still a failure.
        let overshoot = run(motion([.relX: .total(120, tolerance: 2)]), [frame(5, InputEvent(.relX, 120)), frame(21, InputEvent(.relX, 10))])
        #expect(overshoot.outcome == .failed)
        #expect(overshoot.message.contains("REL_X total 130, expected 120 ± 2"), "\(overshoot.message)")
        let percent = run(motion([.relX: .totalPercent(200, percent: 5)]), [frame(5, InputEvent(.relX, 189))])
        #expect(percent.outcome == .failed)
        #expect(percent.message.contains("expected 200 ± 5.0%"), "\(percent.message)")
    }

    @Test("deadline too short")
    func deadline() {
        let verdict = run(keys([key("KEY_RIGHT", 1), key("KEY_RIGHT", 0)], within: 10), [frame(8, key("KEY_RIGHT", 1)), frame(12, key("KEY_RIGHT", 0))])
        #expect(verdict.outcome == .failed)
        #expect(verdict.latency == .milliseconds(12))
        #expect(verdict.message.contains("met after 12 ms, past the 10 ms deadline"), "\(verdict.message)")
    }

    @Test("an expected event that never comes")
    func neverComes() {
        let verdict = run(keys([key("KEY_PLAYPAUSE", 1), key("KEY_PLAYPAUSE", 0)]), [frame(5, key("KEY_PLAYPAUSE", 1))])
        #expect(verdict.outcome == .failed)
        #expect(verdict.message.hasPrefix("1 of 2 key events arrived\nnot met within 200 ms\n"), "\(verdict.message)")
        let nothing = run(keys([key("BTN_LEFT", 1), key("BTN_LEFT", 0)]), [])
        #expect(nothing.message.contains("actual:   no events"), "\(nothing.message)")
    }

    @Test("an extra event when nothing else is allowed")
    func nothingElse() {
        let verdict = run(keys([key("KEY_ENTER", 1), key("KEY_ENTER", 0)], nothingElse: true),
                          [frame(3, InputEvent(.relX, 4)), frame(5, key("KEY_ENTER", 1)), frame(6, key("KEY_ENTER", 0))])
        #expect(verdict.outcome == .failed)
        #expect(verdict.message.contains("unexpected REL_X 4 (the step allows nothing else)"), "\(verdict.message)")
        let extraKey = run(keys([key("KEY_ENTER", 1), key("KEY_ENTER", 0)]),
                           [frame(5, key("KEY_ENTER", 1)), frame(6, key("KEY_ENTER", 0)), frame(7, key("KEY_A", 1))])
        #expect(extraKey.outcome == .failed)
        #expect(extraKey.message.contains("an extra key event: KEY_A 1"), "\(extraKey.message)")
    }

    @Test("autorepeat fails unless allowed")
    func repeatRefused() {
        let verdict = run(keys([key("KEY_RIGHT", 1), key("KEY_RIGHT", 0)]), [frame(1, key("KEY_RIGHT", 1)), frame(30, key("KEY_RIGHT", 2)), frame(31, key("KEY_RIGHT", 0))])
        #expect(verdict.outcome == .failed)
        #expect(verdict.message.contains("key event 2: expected KEY_RIGHT 0, got KEY_RIGHT 2"), "\(verdict.message)")
    }

    @Test("a frame out of order, and an event during an absence step")
    func framesAndAbsence() {
        var expectation = StepExpectation(withinMs: 100)
        expectation.frames = [InputFrame([.press(.btnLeft)]), InputFrame([.release(.btnLeft)])]
        expectation.nothingElse = true
        let swapped = run(expectation, [frame(1, .release(.btnLeft)), frame(2, .press(.btnLeft))])
        #expect(swapped.outcome == .failed)
        #expect(swapped.message.contains("frame [BTN_LEFT 0] at +1 ms where [BTN_LEFT 1] was expected"), "\(swapped.message)")
        var absence = StepExpectation(withinMs: 300)
        absence.absentTypes = [.key]
        let noisy = run(absence, [frame(100, .press(.keyVolumeUp))])
        #expect(noisy.outcome == .failed)
        #expect(noisy.message.contains("EV_KEY event KEY_VOLUMEUP 1 during a step that expects none"), "\(noisy.message)")
    }
}
