import Records
import Testing
import Verifier

/// `Judge.outcome`, the one place a scenario's outcome is decided: its precedence, case by case.
@Suite("A scenario's outcome from its findings")
struct ScenarioOutcomeTests {
    static func findings(steps: [StepResult.Outcome] = [], failures: [String] = [], dropped: Bool = false,
                         errors: [String] = [], teardown: [String] = []) -> ScenarioFindings
    {
        var findings = ScenarioFindings()
        findings.steps = steps
        findings.failures = failures
        findings.droppedEvents = dropped
        findings.errors = errors
        findings.teardownProblems = teardown
        return findings
    }

    @Test("passed only when nothing speaks against it; unchecked steps do not")
    func passed() {
        #expect(Judge.outcome(Self.findings()) == .passed)
        #expect(Judge.outcome(Self.findings(steps: [.passed, .unchecked, .passed])) == .passed)
    }

    @Test("a failed step or a scenario-level failure fails it, even beside an inconclusive step or dropped events")
    func failed() {
        #expect(Judge.outcome(Self.findings(steps: [.passed, .failed])) == .failed)
        #expect(Judge.outcome(Self.findings(steps: [.inconclusive, .failed])) == .failed)
        #expect(Judge.outcome(Self.findings(steps: [.passed], failures: ["held at the end of the scenario: BTN_LEFT"], dropped: true)) == .failed)
    }

    @Test("inconclusive when a step is, or the kernel dropped events, and nothing failed")
    func inconclusive() {
        #expect(Judge.outcome(Self.findings(steps: [.passed, .inconclusive])) == .inconclusive)
        #expect(Judge.outcome(Self.findings(steps: [.passed], dropped: true)) == .inconclusive)
    }

    @Test("an error of the rig or the device under test wins over everything; a teardown problem only over a pass")
    func errors() {
        #expect(Judge.outcome(Self.findings(steps: [.failed], errors: ["the device under test exited"])) == .error)
        #expect(Judge.outcome(Self.findings(steps: [.passed], teardown: ["tearing the link down failed"])) == .error)
        #expect(Judge.outcome(Self.findings(steps: [.failed], teardown: ["tearing the link down failed"])) == .failed)
        #expect(Judge.outcome(Self.findings(steps: [.inconclusive], teardown: ["tearing the link down failed"])) == .inconclusive)
    }
}
