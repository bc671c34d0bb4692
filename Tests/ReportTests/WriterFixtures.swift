import LatencyStats
import Records

/// Fixed results for the writers' snapshots; the runs are the ones RunnerTests.WriterSnapshotTests builds as
/// `ScenarioResult`s, so both sides are checked against the same golden files.
enum WriterFixtures {
    static let environment = RunEnvironment(
        kernel: "6.1.0-56-amd64", bluez: "5.66", rig: "vm", latencyScale: 4, peripheralAdapter: "hci0",
        centralAdapter: "hci1", host: nil, writePath: nil, radio: "btvirt", radioModel: "connectionEvents", radioIntervalMs: 15)

    static func stages(_ gesture: Double, _ link: Double, _ peripheral: Double, _ kernel: Double)
        -> [LatencyStage: Double]
    {
        [.gesture: gesture, .link: link, .peripheral: peripheral, .kernel: kernel]
    }

    static func phases(_ connected: Double, _ done: Double) -> [ScenarioResult.Phase] {
        [.init(name: "connected", atMs: connected), .init(name: "steps done", atMs: done)]
    }

    /// A scenario as `hil run` records it: its latency summary over its steps.
    static func scenario(_ file: String, _ name: String, _ requirements: [String], _ outcome: ScenarioResult.Outcome,
                         steps: [StepResult], message: String = "", durationMs: Double, statusNotifications: Int = 0,
                         repetition: Int = 1, phases: [ScenarioResult.Phase] = []) -> ScenarioResult
    {
        ScenarioResult(
            file: file, name: name, requirements: requirements, outcome: outcome, steps: steps, message: message, durationMs: durationMs, latencyMs: LatencyRecorder(steps.compactMap(\.latencyMs)).summary, statusNotifications: statusNotifications, repetition: repetition, phasesMs: phases)
    }

    static var single: RunResults {
        let scenarios = [
            scenario(
                "Scenarios/buttons/buttons-by-mode.json", "back & forward follow the mode", ["R3.1", "R3.2"], .passed,
                steps: [
                    StepResult(index: 0, kind: "mode", outcome: .unchecked, commands: 1),
                    StepResult(index: 1, kind: "button", outcome: .passed, commands: 1, latencyMs: 8.40712,
                               stagesMs: stages(0, 7.20349, 1.15051, 0.0531)),
                    StepResult(index: 2, kind: "button", outcome: .passed, commands: 1, latencyMs: 13.1004,
                               stagesMs: stages(0, 11.6, 1.44449, -0.0021)),
                ],
                durationMs: 1700.5, statusNotifications: 1, phases: phases(1130.4, 1700.5)),
            scenario(
                "Scenarios/taps/double-tap.json", "double tap <300 ms> is \"double\"", ["R2.1"], .failed,
                steps: [
                    StepResult(index: 0, kind: "tap", outcome: .passed, commands: 1, latencyMs: 9.703,
                               stagesMs: stages(0, 8.407, 1.23, 0.07)),
                    StepResult(index: 1, kind: "tap", outcome: .failed, commands: 2,
                               message: "expected: BTN_LEFT 1, 0, 1, 0\nactual:   BTN_LEFT 1, 0 & nothing else\n"
                                   + "bell \u{7} escape \u{1B}[0m quote ' tab\there"),
                    StepResult(index: 2, kind: "tap", outcome: .passed, commands: 1, latencyMs: 48.2),
                ],
                message: "p95 48.2 ms > limit 40 ms (×4 on vm)", durationMs: 2900, statusNotifications: 1,
                phases: phases(1210, 2900)),
            scenario(
                "Scenarios/swipes/swipe-fast.json", "fast swipe", [], .inconclusive,
                steps: [
                    StepResult(index: 0, kind: "swipe", outcome: .inconclusive, commands: 12, latencyMs: 182.5274,
                               stagesMs: stages(176.127, 9.807, 1.1, 0.1),
                               message: "SYN_DROPPED: the reader fell behind"),
                    StepResult(index: 1, kind: "wait", outcome: .unchecked, commands: 0),
                ],
                durationMs: 2500.25, phases: phases(1100, 2500)),
            scenario(
                "scenario-at-root.json", "peripheral crashes", ["R10"], .error, steps: [],
                message: "hil peripheral exited with status 134\nrun `hil doctor`", durationMs: 350.75),
        ]
        var environment = environment
        environment.shard = RunShard(index: 2, count: 3)
        return RunResults(
            rig: "vm", startedAt: "2026-11-18T11:06:40Z", wallMs: 61234.56, shard: RunShard(index: 2, count: 3),
            environments: [environment], scenarios: scenarios)
    }

    static var repeated: RunResults {
        let verdicts: [(String, String, [ScenarioResult.Outcome])] = [
            ("Scenarios/a/steady.json", "steady", [.passed, .passed, .passed]),
            ("Scenarios/b/flaky.json", "flaky <one>", [.passed, .failed, .passed]),
            ("Scenarios/c/broken.json", "broken & \"stuck\"", [.error, .error, .error]),
        ]
        var scenarios: [ScenarioResult] = []
        for repetition in 1...3 {
            for (file, name, outcomes) in verdicts {
                let outcome = outcomes[repetition - 1]
                let step = StepResult(
                    index: 0, kind: "swipe", outcome: outcome == .failed ? .failed : .passed, commands: 3,
                    latencyMs: outcome == .error ? nil : 10 + Double(repetition) * 1.2345,
                    message: outcome == .failed ? "expected REL_X 30\nactual REL_X 29" : "")
                scenarios.append(scenario(
                    file, name, ["R1.1"], outcome, steps: outcome == .error ? [] : [step],
                    message: outcome == .error ? "rig failed: bluetoothd is gone" : "",
                    durationMs: 1000 + Double(repetition) * 10.5, statusNotifications: repetition,
                    repetition: repetition, phases: phases(500, 900 + Double(repetition))))
            }
        }
        return RunResults(
            rig: "vm", startedAt: "2026-11-18T11:06:40Z", wallMs: 9000.4, environments: [environment],
            scenarios: scenarios)
    }

    static let bench = benchResults()

    /// The bench's results as `hil bench` writes them by default: its own BLE paths dithered (the same text as
    /// `BenchRunner.Settings.pacing`, which RunnerTests' writer snapshot pins to the same golden file).
    private static func benchResults() -> BenchResults {
        var results = benchRecords
        results.pacing = "dbus, fd and hid (hil's own BLE paths): each send at a uniform offset within its 10 ms slot (fixed seed), so a periodic radio's events meet the stream at even phases; the mean rate and order kept; tcp, udp and the reference clients regular"
        return results
    }

    private static let benchRecords = BenchResults(
        rig: "vm", kernel: "6.1.0-56-amd64", bluez: nil, radio: "btvirt", radioModel: "connectionEvents", radioIntervalMs: 7.5,
        count: 1000, rateHz: 100,
        paths: [
            BenchResults.Path(
                name: "dbus",
                main: stream(rate: 100, sent: 1000, received: 993, lostAt: "0-6", unseen: 2, unseenAt: "180, 955",
                             achievedHz: 99.96123),
                stagesMs: [
                    "peripheral": LatencySummary(count: 991, p50: 1.10049, p95: 1.5, p99: 2.25, max: 3.0001),
                    "link": LatencySummary(count: 991, p50: 7.20349, p95: 11.6, p99: 14.0, max: 30.12345),
                ],
                maxSustainedHz: nil,
                ladder: [stream(rate: 100, sent: 500, received: 490, lostAt: "3-12", achievedHz: 94.04)],
                rungs: [
                    BenchResults.Rung(rateHz: 100, repetitions: 1, sustained: false, achievedHz: Spread(median: 94.04, min: 94.04, max: 94.04),
                                      p99Ms: Spread(median: 21.0049, min: 21.0049, max: 21.0049)),
                ]),
            BenchResults.Path(
                name: "fd",
                main: stream(rate: 100, sent: 1000, received: 1000, achievedHz: 100.04),
                stagesMs: [:], maxSustainedHz: 100,
                ladder: [
                    stream(rate: 100, sent: 500, received: 500, achievedHz: 100.01),
                    stream(rate: 100, sent: 500, received: 500, achievedHz: 99.87),
                    stream(rate: 100, sent: 500, received: 500, achievedHz: 100.2),
                    stream(rate: 400, sent: 2000, received: 2000, achievedHz: 398.76, readerDrops: 1, empty: true),
                ],
                rungs: [
                    BenchResults.Rung(rateHz: 100, repetitions: 3, sustained: true, achievedHz: Spread(median: 100.01, min: 99.87, max: 100.2),
                                      p99Ms: Spread(median: 21.0049, min: 21.0049, max: 21.0049)),
                    BenchResults.Rung(rateHz: 400, repetitions: 1, sustained: false, achievedHz: Spread(median: 398.76, min: 398.76, max: 398.76),
                                      p99Ms: Spread(median: .infinity, min: .infinity, max: .infinity)),
                ]),
        ])

    static func stream(rate: Double, sent: Int, received: Int, lostAt: String = "", unseen: Int = 0,
                       unseenAt: String = "", achievedHz: Double, readerDrops: Int = 0, empty: Bool = false)
        -> BenchResults.Stream
    {
        BenchResults.Stream(
            rateHz: rate, sent: sent, received: received, lost: sent - received, lostAt: lostAt,
            verified: received - unseen, unseen: unseen, unseenAt: unseenAt, readerDrops: readerDrops,
            achievedHz: achievedHz,
            latency: empty ? .empty : LatencySummary(count: received - unseen, p50: 8.40712, p95: 13.1, p99: 21.0049,
                                                      max: 48.2))
    }

    static let soak = SoakResults(
        rig: "vm", rateHz: 120, path: "fd", sent: 14400, lostByLink: 3, readerDrops: 1,
        minutes: [
            SoakResults.Minute(
                minute: 1, sent: 7200, verified: 7200, unverified: 0,
                latency: LatencySummary(count: 7200, p50: 8.40712, p95: 13.1, p99: 21.00049, max: 48.2),
                residentKiB: 10240),
            SoakResults.Minute(
                minute: 2, sent: 7200, verified: 7195, unverified: 5, latency: .empty, residentKiB: nil),
        ])
}
