import Foundation
import Records
import Scenario
import ScenarioDriver
import StrictJSON
import Testing

/// `hil replay`'s whole output for a mid-size scenario, against a golden file written before replay was made to
/// grow linearly (issue 39): the indexes behind it must not change a verdict, a count, a latency or a line.
///
/// The scenario is Benchmarks/make-scenario.py's for 120 steps (`python3 Benchmarks/make-scenario.py 120`); its
/// twin expects one right click too many at every count, so the golden file also holds the counts each step saw.
/// After a deliberate change of the replay's output, rewrite the golden file and review the diff with git:
/// `HIL_RECORD_SNAPSHOTS=1 swift test --filter ReplayGoldenTests`.
@Suite("hil replay's output for a mid-size scenario is its golden file")
struct ReplayGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let scenarioFile = folder.appendingPathComponent("replay-120-steps.json").path

    @Test("120 steps and a twin whose received counts are one off: every line, verdict, count, latency and stage as before")
    func midSize() async throws {
        let text = try String(contentsOfFile: Self.scenarioFile, encoding: .utf8)
        let twinText = text.replacingOccurrences(of: #""rightClick": 1"#, with: #""rightClick": 2"#)
        #expect(twinText != text)
        var output = ""
        for (name, json) in [("as generated", text), ("received counts one off", twinText)] {
            let scenario = try Scenario.parse(try JSONParser().parse(json), file: Self.scenarioFile)
            output += "== \(name)\n" + Self.transcript(await OfflineReplay.run(scenario))
        }
        try Self.check(output, named: "replay-120-steps.golden.txt")
    }

    /// What `hil replay` prints for a scenario, then each step's result as a rig run reports it.
    static func transcript(_ replay: OfflineReplay) -> String {
        var lines = ["verdict: \(replay.verdict.rawValue)"] + replay.lines + replay.notJudged.map { "not judged: " + $0 }
        lines.append(replay.summary)
        lines += replay.errors.map { "error: " + $0.replacingOccurrences(of: "\n", with: " / ") }
        for step in replay.steps {
            let stages = LatencyStage.allCases.compactMap { stage in step.stagesMs?[stage].map { "\(stage.rawValue) \($0)" } }
            lines.append("steps[\(step.index)] \(step.kind) \(step.outcome.rawValue) commands \(step.commands.map(String.init) ?? "-")"
                + " latency \(step.latencyMs.map { "\($0)" } ?? "-") stages [\(stages.joined(separator: ", "))]"
                + " first \(step.firstSendNs.map(String.init) ?? "-") completed \(step.completedNs.map(String.init) ?? "-")"
                + (step.message.isEmpty ? "" : ": " + step.message.replacingOccurrences(of: "\n", with: " / ")))
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Records an issue at the first line where `actual` differs from the golden file; with `HIL_RECORD_SNAPSHOTS=1`,
    /// writes it instead.
    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["HIL_RECORD_SNAPSHOTS"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        let written = actual.components(separatedBy: "\n")
        guard expected != written else { return }
        let first = zip(expected, written).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expected.count, written.count)
        func line(_ lines: [String]) -> String { first < lines.count ? lines[first].debugDescription : "(end of file)" }
        Issue.record("""
            \(name) differs from its golden file at line \(first + 1) (\(expected.count) lines expected, \(written.count) written):
            - expected: \(line(expected))
            + actual:   \(line(written))
            (HIL_RECORD_SNAPSHOTS=1 rewrites it; review the diff with git)
            """, sourceLocation: sourceLocation)
    }
}
