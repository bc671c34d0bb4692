import Records
import Report
@testable import Runner
import Scenario
import ScenarioDriver
import StrictJSON
import Testing
import HILTestSupport

/// A tap whose right click came out as a left click, driven through the phone model and the mapping (the verdict is
/// the verifier's own, not a message written here): the reason CI shows first — junit.xml's failure message,
/// summary.md's first reason, the line `hil run -q` prints — is the expected-vs-got line, never "steps[0] (tap)
/// failed:" with nothing after it or "not met within 3200 ms".
@Suite("A failed step explains itself where CI looks first")
struct FailureReasonTests {
    static let expected = "steps[0] (tap) failed: key event 1: expected BTN_RIGHT 1, got BTN_LEFT 1 at +"

    static func failedTap() async throws -> ScenarioResult {
        let text = #"{"name": "right click", "steps": [{"tap": {}, "expect": {"keys": ["BTN_RIGHT 1", "BTN_RIGHT 0"], "withinMs": 3200}}]}"#
        let scenario = try Scenario.parse(try JSONParser().parse(text), file: "Scenarios/clicks/right-click.json")
        let replay = await OfflineReplay.run(scenario)
        #expect(replay.steps.map(\.outcome) == [.failed])
        return ScenarioResult(file: scenario.file, name: scenario.script.name, outcome: .failed, steps: replay.steps,
                              durationMs: 3412)
    }

    @Test("junit.xml: the failure's message attribute is the expected-vs-got line")
    func junit() async throws {
        let result = try await Self.failedTap()
        let xml = RunReport.junit([result])
        #expect(xml.contains("<failure message=\"\(Self.expected)"), "\(xml)")
        try GoldenFile.check(xml, named: "junit-failed-tap.xml")
    }

    @Test("summary.md: the first reason is the expected-vs-got line")
    func summary() async throws {
        let result = try await Self.failedTap()
        let markdown = MarkdownSummary.render(RunResults(scenarios: [result]))
        #expect(markdown.contains("| right click | failed | \(Self.expected)"), "\(markdown)")
        try GoldenFile.check(markdown, named: "summary-failed-tap.md")
    }

    @Test("hil run -q: the scenario's line, then the expected-vs-got line; the rest only without -q")
    func console() async throws {
        let result = try await Self.failedTap()
        #expect(RunConsole.reason(result)?.hasPrefix("    " + Self.expected) == true, "\(RunConsole.reason(result) ?? "nil")")
        let details = try #require(RunConsole.details(result))
        #expect(!details.contains("key event 1"), "the reason is not said twice: \(details)")
        #expect(details.contains("not met within 3200 ms") && details.contains("actual:"), "\(details)")
    }
}
