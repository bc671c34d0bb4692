import HILTestSupport
import InputCodes
import Testing
@testable import Verifier

/// `StepMatcher.feed` knows frame by frame whether a step is met from `MatchProgress`, not by judging every frame
/// so far again (which made a long segment quadratic, issue 39): on random expectations and frames, it must say met
/// exactly when the full judgement (`problems()`) finds nothing, and `metBy` must be that first frame.
@Suite("A step's progress, frame by frame, is what judging all its frames again finds")
struct MatchProgressTests {
    static let codes: [EventCode] = [.keyA, .keyEnter, .btnLeft, .relX, .relY, .relWheel]

    static func event(_ random: inout SplitMix64) -> InputEvent {
        let code = codes.randomElement(using: &random)!
        let value: Int32 = code.type == .key ? Int32.random(in: 0...2, using: &random) : Int32.random(in: -3...6, using: &random)
        return InputEvent(code, value)
    }

    static func frame(_ random: inout SplitMix64) -> InputFrame {
        InputFrame((0..<Int.random(in: 1...3, using: &random)).map { _ in event(&random) })
    }

    static func expectation(_ random: inout SplitMix64) -> StepExpectation {
        var expectation = StepExpectation(withinMs: 500)
        if Bool.random(using: &random) {
            expectation.keys = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                InputEvent([.keyA, .keyEnter, .btnLeft].randomElement(using: &random)!, Int32.random(in: 0...1, using: &random))
            }
        }
        expectation.allowRepeat = Bool.random(using: &random)
        if Int.random(in: 0..<4, using: &random) == 0 {
            expectation.frames = (0..<Int.random(in: 1...2, using: &random)).map { _ in frame(&random) }
        }
        for axis in [EventCode.relX, .relY] where Bool.random(using: &random) {
            expectation.motion[axis] = [.total(Int.random(in: -2...8, using: &random), tolerance: Int.random(in: 0...3, using: &random)),
                                        .totalPercent(Int.random(in: 1...8, using: &random), percent: 50),
                                        .direction(.positive), .direction(.negative), .direction(.zero)].randomElement(using: &random)!
        }
        if Int.random(in: 0..<4, using: &random) == 0 { expectation.absentTypes = [[.key], [.rel]].randomElement(using: &random)! }
        expectation.nothingElse = Bool.random(using: &random)
        return expectation
    }

    @Test("met exactly when judging every frame so far finds nothing, on 3,000 random steps")
    func agreesWithJudgingAgain() {
        var random = SplitMix64(seed: 39)
        var met = 0
        for _ in 0..<3000 {
            let expectation = Self.expectation(&random)
            var matcher = StepMatcher(expectation, sentAt: MonotonicTime(nanoseconds: 1_000))
            var progress = MatchProgress(expectation)
            var firstMet: EvdevFrame?
            for index in 0..<Int.random(in: 0...10, using: &random) {
                // Half the time the next expected key or frame, so that steps are met as well as missed.
                var next = Self.frame(&random)
                if Bool.random(using: &random), let keys = expectation.keys, !keys.isEmpty {
                    next = InputFrame([keys[min(index, keys.count - 1)]])
                } else if Bool.random(using: &random), let frames = expectation.frames {
                    next = frames[min(index, frames.count - 1)]
                }
                let frame = EvdevFrame(frame: next, time: MonotonicTime(nanoseconds: 2_000 + UInt64(index)))
                matcher.feed(frame)
                progress.add(next)
                let judged = matcher.problems().isEmpty
                #expect(progress.isMet == judged, "\(expectation) after \(matcher.frames.map(\.frame))")
                if judged && firstMet == nil && !expectation.isAbsenceOnly { firstMet = frame }
            }
            #expect(matcher.metBy == firstMet, "\(expectation) after \(matcher.frames.map(\.frame))")
            if firstMet != nil { met += 1 }
        }
        #expect(met > 300, "the random steps must be met often enough to test it")
    }
}
