import Foundation
import HILTestSupport
import Mutations
import Records
import Testing

/// mutations.json, the score, the table, and a suite run's verdict read from its results.json.
@Suite("Mutations: results, score, table and a suite's verdict")
struct MutationResultsTests {
    static let results = MutationResults(
        suites: ["Scenarios/", "Scenarios-nightly/"], build: "release", commit: "abc1234", startedAt: "2026-12-07T04:00:00Z",
        entries: [
            .init(id: "mapping-a", fault: "a", area: "mapping", requirements: ["R1.2"], argued: nil, outcome: .caught,
                  suite: "Scenarios/", caughtBy: "Scenarios/cursor/swipe-right.json", detail: "failed: steps[0] (swipe): accounting: frame 1 …", seconds: 12.3),
            .init(id: "timing-b", fault: "b", area: "timing", requirements: ["R1.2"], argued: nil, outcome: .survived, seconds: 80),
            .init(id: "order-c", fault: "c", area: "order", requirements: ["R1.2"],
                  argued: .init(kind: .equivalent, why: "the queue it reorders never holds two writes"), outcome: .survived),
            .init(id: "status-d", fault: "d", area: "status", requirements: ["R5.1"], argued: nil, outcome: .broken, detail: "the patch does not apply"),
        ])

    @Test("the score counts caught over counted: argued equivalent and broken faults are not counted; unargued survivors are named")
    func score() {
        #expect(Self.results.counted.map(\.id) == ["mapping-a", "timing-b"])
        #expect(Self.results.score == 0.5)
        #expect(Self.results.unargued.map(\.id) == ["timing-b"])
        let summary = MutationTable.summary(Self.results)
        #expect(summary.hasPrefix("score 50.0 %: 1 of 2 counted faults caught (4 in the catalogue; 1 argued equivalent and 1 broken, not counted)"))
        #expect(summary.contains("survivors not argued: timing-b"))
    }

    @Test("mutations.json reads back what was written")
    func roundTrip() throws {
        let folder = try temporaryFolder()
        let file = folder + "/mutations.json"
        try Self.results.jsonText.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try MutationResults.load(contentsOf: file) == Self.results)
        try "{\"format\": \"hil-results/4\"}".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ReportError.self) { try MutationResults.load(contentsOf: file) }
        try FileManager.default.removeItem(atPath: folder)
    }

    @Test("the table: each fault's outcome, who caught it with the first line, why a survivor is argued")
    func table() {
        let table = MutationTable.markdown(Self.results)
        #expect(table.contains("| `mapping-a` | mapping | caught | Scenarios/cursor/swipe-right.json: failed: steps[0] (swipe): accounting: frame 1 … |"))
        #expect(table.contains("| `timing-b` | timing | survived | **not argued**: a hole in the suites, or a fault to argue |"))
        #expect(table.contains("| `order-c` | order | survived (argued equivalent) | the queue it reorders never holds two writes |"))
    }

    @Test("a suite's verdict: the first scenario that did not pass, with its first failed step's first line")
    func verdict() {
        var passed = ScenarioResult(file: "Scenarios/a.json", name: "a", requirements: [], outcome: .passed, steps: [], message: "", durationMs: 1)
        var failed = passed
        failed.file = "Scenarios/b.json"
        failed.outcome = .failed
        failed.steps = [StepResult(index: 0, kind: "tap", outcome: .passed, message: ""),
                        StepResult(index: 1, kind: "swipe", outcome: .failed, message: "REL_X total 110, expected 120 ± 2\nexpected: …")]
        var notApplicable = passed
        notApplicable.outcome = .notApplicable
        let results = RunResults(scenarios: [notApplicable, passed, failed])
        let verdict = SuiteVerdict(results)
        #expect(verdict.caughtBy == "Scenarios/b.json")
        #expect(verdict.detail == "failed: steps[1] (swipe): REL_X total 110, expected 120 ± 2")
        #expect(verdict.scenarios == 2)
        passed.message = "x"
        #expect(SuiteVerdict(RunResults(scenarios: [passed])).caught == false)
    }
}
