import InputCodes
import Testing
import Records

/// A frame that turns up after its step was judged (its step's match was met and 50 ms were quiet) but is stamped
/// before the next step's first command: the 20-repeat's "unexpected REL_X 3 at -352 ms" charged to a tap.
@Suite("Late frames are judged with the step they belong to")
struct StragglerTests {
    static let swipeThenTap = #"""
        {"name": "swipe, then tap", "settings": {"acceleration": "none"}, "steps": [
          {"swipe": {"from": [100, 300], "to": [160, 300], "durationMs": 150},
           "expect": {"motion": {"REL_X": {"total": 60, "tolerance": 3}}, "withinMs": 400}},
          {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "nothingElse": true, "withinMs": 600}}
        ]}
        """#

    static func run(_ json: String = swipeThenTap, late value: Int32,
                    stamp: LateFrameComputer.Stamp = .beforeFirstSend) async throws -> [StepResult]
    {
        let frame = InputFrame([InputEvent(.relX, value)])
        return try await ScenarioDriverTests.run(json) { LateFrameComputer($0, frame: frame, stamp: stamp) }.steps
    }

    @Test("a straggler stamped before the tap's first command counts for the swipe, and the tap passes")
    func stragglerGoesBack() async throws {
        let steps = try await Self.run(late: 3)
        #expect(steps.map(\.outcome) == [.passed, .passed], "\(steps.map(\.message))")
        #expect(steps[0].message.contains("1 frame(s) that arrived after this step was judged, stamped before steps[1]'s first command"),
                "\(steps[0].message)")
        #expect(!steps[1].message.contains("REL_X"), "\(steps[1].message)")
    }

    @Test("a straggler that pushes the swipe's total out of its tolerance fails the swipe, not the tap")
    func stragglerFailsItsOwnStep() async throws {
        let steps = try await Self.run(late: 10)
        #expect(steps.map(\.outcome) == [.failed, .passed], "\(steps.map(\.message))")
        #expect(steps[0].message.contains("REL_X total 70, expected"), "\(steps[0].message)")
    }

    @Test("a stray frame stamped after the tap's first command is still the tap's, and fails it")
    func afterTheSendStaysPut() async throws {
        let steps = try await Self.run(late: 3, stamp: .afterOwnFirstFrame)
        #expect(steps.map(\.outcome) == [.passed, .failed], "\(steps.map(\.message))")
        #expect(steps[1].message.contains("unexpected REL_X 3 (the step allows nothing else)"), "\(steps[1].message)")
    }

    @Test("when the step before was not judged on events, the frame stays with the step that saw it")
    func uncheckedStepBeforeKeepsIt() async throws {
        let unjudged = #"""
            {"name": "swipe, then tap", "settings": {"acceleration": "none"}, "steps": [
              {"swipe": {"from": [100, 300], "to": [160, 300], "durationMs": 150}},
              {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "nothingElse": true, "withinMs": 600}}
            ]}
            """#
        let steps = try await Self.run(unjudged, late: 3)
        #expect(steps.map(\.outcome) == [.unchecked, .failed], "\(steps.map(\.message))")
        #expect(steps[1].message.contains("unexpected REL_X 3"), "\(steps[1].message)")
    }
}
