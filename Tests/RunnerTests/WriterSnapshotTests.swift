import Foundation
import Records
import Report
import ScenarioDriver
import Testing
import HILTestSupport

/// `hil run`'s results.json and junit.xml for fixed runs (BenchTests' `BenchWriterSnapshotTests` has bench.json and soak.json),
/// compared byte for byte with the golden files in Tests/ReportTests/Snapshots (the same files ReportTests checks
/// Report's writers against): this proves the conversion from the runner's results to Report's values loses
/// nothing. results.json and junit.xml were first recorded from the writers as they were before they moved.
///
/// To rewrite the golden files after a deliberate format change: `HIL_RECORD_SNAPSHOTS=1 swift test --filter
/// RunnerTests.WriterSnapshotTests`, then review the diff with git.
@Suite("hil run's writers against the golden files")
struct WriterSnapshotTests {
    @Test("one run: results.json")
    func singleResults() throws {
        let text = RunReport.json(
            RunFixtures.single, environment: RunFixtures.environment, startedAt: RunFixtures.startedAt,
            wallMs: 61234.56, shard: (index: 2, count: 3))
        try GoldenFile.check(text, named: "results-single.json")
    }

    @Test("one run: junit.xml")
    func singleJUnit() throws {
        try GoldenFile.check(RunReport.junit(RunFixtures.single), named: "junit-single.xml")
    }

    @Test("repeated run: results.json with stability")
    func repeatedResults() throws {
        let text = RunReport.json(
            RunFixtures.repeated, environment: RunFixtures.environment, startedAt: RunFixtures.startedAt,
            wallMs: 9000.4)
        try GoldenFile.check(text, named: "results-repeated.json")
    }

    @Test("repeated run: junit.xml with flaky scenarios")
    func repeatedJUnit() throws {
        try GoldenFile.check(RunReport.junit(RunFixtures.repeated), named: "junit-repeated.xml")
    }

    @Test("hil run --repeat's table, from Report's stability")
    func stabilityTable() {
        #expect(RunReport.stabilityTable(RunFixtures.repeated) == """
            stability over 3 repeats (P passed, F failed, I inconclusive, E error, N not applicable):
              PPP     3/3  steady
              PFP     2/3  FLAKY flaky <one>
              EEE     0/3  broken & "stuck"
            1 flaky scenario(s): verdicts differ between repeats
            """)
    }

    @Test("--transport all with --repeat: a row per scenario and transport, so a verdict that differs on one transport is that row's")
    func stabilityPerTransport() {
        var results: [ScenarioResult] = []
        for repetition in 1...2 {
            for transport in ["ble", "udp"] {
                let failed = transport == "udp" && repetition == 2
                var result = ScenarioResult(file: "Scenarios/a/tap.json", name: "tap [\(transport)]", outcome: failed ? .failed : .passed,
                                            steps: [], transport: transport)
                result.repetition = repetition
                results.append(result)
            }
        }
        #expect(RunReport.stabilityTable(results) == """
            stability over 2 repeats (P passed, F failed, I inconclusive, E error, N not applicable):
              PP      2/2  tap [ble]
              PF      1/2  FLAKY tap [udp]
            1 flaky scenario(s): verdicts differ between repeats
            """)
    }

    @Test("hil run's latency by transport: the last column is the product's claim for the transport")
    func transportTable() throws {
        let results = [("ble", 4.0), ("tcp", 6.0)].map { transport, latency in
            ScenarioResult(file: "\(transport).json", name: transport, outcome: .passed, steps: [
                StepResult(index: 0, kind: "tap", outcome: .passed, commands: 1, latencyMs: latency),
            ], transport: transport)
        }
        #expect(try #require(RunReport.transportTable(results)) == """
            transport      n   p50 ms   p95 ms   p99 ms   max ms  link p50   the product's claim
            ble           1      4.0      4.0      4.0      4.0        -   ~5–10 ms
            tcp           1      6.0      6.0      6.0      6.0        -   -
            """)
    }
}

/// Fixed runs: every outcome, stages and phases, messages with characters XML must escape or cannot carry.
enum RunFixtures {
    static let startedAt = Date(timeIntervalSince1970: 1_795_000_000.25)

    static let environment = RunEnvironment(
        kernel: "6.1.0-56-amd64", bluez: "5.66", rig: "vm", latencyScale: 4, peripheralAdapter: "hci0",
        centralAdapter: "hci1", host: nil, writePath: nil, radio: "btvirt", radioModel: "connectionEvents", radioIntervalMs: 15)

    static func stages(_ gesture: Double, _ link: Double, _ peripheral: Double, _ kernel: Double)
        -> StageBreakdown.Stages
    {
        StageBreakdown.Stages(gesture: gesture, link: link, peripheral: peripheral, kernel: kernel)
    }

    static func phases(_ connected: Double, _ done: Double) -> [ScenarioResult.Phase] {
        [.init(name: "connected", atMs: connected), .init(name: "steps done", atMs: done)]
    }

    static var single: [ScenarioResult] {
        var passed = ScenarioResult(
            file: "Scenarios/buttons/buttons-by-mode.json", name: "back & forward follow the mode",
            requirements: ["R3.1", "R3.2"], outcome: .passed,
            steps: [
                StepResult(index: 0, kind: "mode", outcome: .unchecked, commands: 1, latencyMs: nil, message: ""),
                StepResult(index: 1, kind: "button", outcome: .passed, commands: 1, latencyMs: 8.40712, stagesMs: stages(0, 7.20349, 1.15051, 0.0531).byStage,
                           message: ""),
                StepResult(index: 2, kind: "button", outcome: .passed, commands: 1, latencyMs: 13.1004, stagesMs: stages(0, 11.6, 1.44449, -0.0021).byStage,
                           message: ""),
            ],
            message: "", durationMs: 1700.5)
        passed.statusNotifications = 1
        passed.phasesMs = phases(1130.4, 1700.5)
        var failed = ScenarioResult(
            file: "Scenarios/taps/double-tap.json", name: "double tap <300 ms> is \"double\"",
            requirements: ["R2.1"], outcome: .failed,
            steps: [
                StepResult(index: 0, kind: "tap", outcome: .passed, commands: 1, latencyMs: 9.703, stagesMs: stages(0, 8.407, 1.23, 0.07).byStage,
                           message: ""),
                StepResult(index: 1, kind: "tap", outcome: .failed, commands: 2, latencyMs: nil,
                           message: "expected: BTN_LEFT 1, 0, 1, 0\nactual:   BTN_LEFT 1, 0 & nothing else\n"
                               + "bell \u{7} escape \u{1B}[0m quote ' tab\there"),
                StepResult(index: 2, kind: "tap", outcome: .passed, commands: 1, latencyMs: 48.2, message: ""),
            ],
            message: "p95 48.2 ms > limit 40 ms (×4 on vm)", durationMs: 2900.0)
        failed.statusNotifications = 1
        failed.phasesMs = phases(1210, 2900)
        var inconclusive = ScenarioResult(
            file: "Scenarios/swipes/swipe-fast.json", name: "fast swipe", requirements: [], outcome: .inconclusive,
            steps: [
                StepResult(index: 0, kind: "swipe", outcome: .inconclusive, commands: 12, latencyMs: 182.5274,
                           stagesMs: stages(176.127, 9.807, 1.1, 0.1).byStage, message: "SYN_DROPPED: the reader fell behind"),
                StepResult(index: 1, kind: "wait", outcome: .unchecked, commands: 0, latencyMs: nil, message: ""),
            ],
            message: "", durationMs: 2500.25)
        inconclusive.phasesMs = phases(1100, 2500)
        let error = ScenarioResult(
            file: "scenario-at-root.json", name: "peripheral crashes", requirements: ["R10"], outcome: .error,
            steps: [],
            message: "hil peripheral exited with status 134\nrun `hil doctor`", durationMs: 350.75)
        return [passed, failed, inconclusive, error]
    }

    static var repeated: [ScenarioResult] {
        var results: [ScenarioResult] = []
        let verdicts: [(String, String, [ScenarioResult.Outcome])] = [
            ("Scenarios/a/steady.json", "steady", [.passed, .passed, .passed]),
            ("Scenarios/b/flaky.json", "flaky <one>", [.passed, .failed, .passed]),
            ("Scenarios/c/broken.json", "broken & \"stuck\"", [.error, .error, .error]),
        ]
        for repetition in 1...3 {
            for (file, name, outcomes) in verdicts {
                let outcome = outcomes[repetition - 1]
                let step = StepResult(
                    index: 0, kind: "swipe", outcome: outcome == .failed ? .failed : .passed,
                    commands: 3, latencyMs: outcome == .error ? nil : 10 + Double(repetition) * 1.2345,
                    message: outcome == .failed ? "expected REL_X 30\nactual REL_X 29" : "")
                var result = ScenarioResult(
                    file: file, name: name, requirements: ["R1.1"], outcome: outcome,
                    steps: outcome == .error ? [] : [step],
                    message: outcome == .error ? "rig failed: bluetoothd is gone" : "",
                    durationMs: 1000 + Double(repetition) * 10.5)
                result.repetition = repetition
                result.statusNotifications = repetition
                result.phasesMs = phases(500, 900 + Double(repetition))
                results.append(result)
            }
        }
        return results
    }
}
