import Foundation
import HILTestSupport
import LatencyStats
import Records
import Testing
@testable import Bench

/// `hil bench`'s bench.json and `hil soak`'s soak.json for fixed runs, compared byte for byte with the golden files in
/// Tests/ReportTests/Snapshots (`GoldenFile`). To rewrite them after a deliberate format change:
/// `HIL_RECORD_SNAPSHOTS=1 swift test --filter BenchTests.BenchWriterSnapshotTests`, then review the diff with git.
@Suite("hil bench's and hil soak's writers against the golden files")
struct BenchWriterSnapshotTests {
    @Test("hil bench's results: bench.json")
    func bench() throws {
        var settings = BenchRunner.Settings()
        settings.count = 1000
        settings.rateHz = 100
        let text = BenchRunner.json(
            BenchFixtures.bench, paths: ["dbus", "fd", "absent"], settings: settings, rig: "vm", kernel: "6.1.0-56-amd64",
            bluez: nil, radio: RunEnvironment(radio: "btvirt", radioModel: "connectionEvents", radioIntervalMs: 7.5))
        try GoldenFile.check(text, named: "bench.json")
    }

    @Test("hil soak's results: soak.json")
    func soak() throws {
        let summary = SoakRunner.Summary(
            minutes: [
                SoakRunner.Minute(
                    minute: 1, sent: 7200, verified: 7200,
                    latency: LatencySummary(count: 7200, p50: 8.40712, p95: 13.1, p99: 21.00049, max: 48.2),
                    residentKiB: 10240),
                SoakRunner.Minute(minute: 2, sent: 7200, verified: 7195, latency: .empty, residentKiB: nil),
            ],
            lostByLink: 3, sent: 14400, readerDrops: 1)
        try GoldenFile.check(summary.json(rig: "vm", rateHz: 120, path: "fd"), named: "soak.json")
    }
}

enum BenchFixtures {
    /// The bench of ReportTests' `WriterFixtures.bench`, as `BenchRunner` measures it.
    static var bench: [String: BenchRunner.PathResult] {
        func stream(rate: Double, sent: Int, received: Int, lostAt: String = "", unseen: Int = 0, unseenAt: String = "",
                    achievedHz: Double, readerDrops: Int = 0, empty: Bool = false,
                    stages: [String: LatencySummary] = [:]) -> BenchRunner.Stream
        {
            let latency = empty ? LatencySummary.empty
                : LatencySummary(count: received - unseen, p50: 8.40712, p95: 13.1, p99: 21.0049, max: 48.2)
            var stream = BenchRunner.Stream(
                path: "", rateHz: rate, sent: sent, received: received, verified: received - unseen,
                achievedHz: achievedHz, latency: latency, stages: stages)
            stream.lostAt = lostAt
            stream.unseenAt = unseenAt
            stream.readerDrops = readerDrops
            return stream
        }
        let dbusStages = [
            "peripheral": LatencySummary(count: 991, p50: 1.10049, p95: 1.5, p99: 2.25, max: 3.0001),
            "link": LatencySummary(count: 991, p50: 7.20349, p95: 11.6, p99: 14.0, max: 30.12345),
        ]
        return [
            "dbus": BenchRunner.PathResult(
                main: stream(rate: 100, sent: 1000, received: 993, lostAt: "0-6", unseen: 2, unseenAt: "180, 955",
                             achievedHz: 99.96123, stages: dbusStages),
                ladder: [BenchRung(rateHz: 100, required: 3, repetitions: [stream(rate: 100, sent: 500, received: 490, lostAt: "3-12", achievedHz: 94.04)])],
                maxSustainedHz: nil),
            "fd": BenchRunner.PathResult(
                main: stream(rate: 100, sent: 1000, received: 1000, achievedHz: 100.04),
                ladder: [
                    BenchRung(rateHz: 100, required: 3, repetitions: [
                        stream(rate: 100, sent: 500, received: 500, achievedHz: 100.01),
                        stream(rate: 100, sent: 500, received: 500, achievedHz: 99.87),
                        stream(rate: 100, sent: 500, received: 500, achievedHz: 100.2),
                    ]),
                    BenchRung(rateHz: 400, required: 3, repetitions: [
                        stream(rate: 400, sent: 2000, received: 2000, achievedHz: 398.76, readerDrops: 1, empty: true),
                    ]),
                ],
                maxSustainedHz: 100),
        ]
    }
}
