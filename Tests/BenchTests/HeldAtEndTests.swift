import LatencyStats
import Records
import RigControl
import ScenarioDriver
import Testing
@testable import Bench

/// A held button is never silent (docs/protocol.md, "Order"): a bench, soak or calibration stream that ends with a
/// key or button held fails, names it on the console and records it in its file.
@Suite("hil bench, soak and calibrate: a key or button held at the end of a stream fails the run and is named")
struct HeldAtEndTests {
    static func run(held: [String]) -> BenchRunner.StreamRun {
        BenchRunner.StreamRun(rate: 100, range: 0..<2, achievedHz: 100, blocked: 0, readerDrops: 0, heldAtEnd: held)
    }

    static func analysed(held: [String], path: String = "fd") -> BenchRunner.Stream {
        let sends = [StageBreakdown.Send(at: 1_000_000, payload: "a"), StageBreakdown.Send(at: 11_000_000, payload: "b")]
        let receipts = [StageBreakdown.Receipt(received: 2_000_000, written: [2_100_000], payload: "a"),
                        StageBreakdown.Receipt(received: 12_000_000, written: [12_100_000], payload: "b")]
        return Self.bench.analyse(run(held: held), path: path, sends: sends, receipts: receipts, alignment: [0: 0, 1: 1],
                             frameTimes: [2_050_000, 12_050_000])
    }

    static let bench = BenchRunner(
        context: .init(rig: RunningRig(name: "vm", lanes: [.init(peripheral: "hci0", central: "hci1")], uinputName: "u"), hil: "hil",
                       writePath: nil, workDirectory: "/tmp"),
        settings: .init())

    @Test("bench: the stream keeps what was held, is not sustained, its line names it, and the run's list of held streams has it")
    func bench() {
        let clean = Self.analysed(held: [])
        #expect(clean.heldAtEnd.isEmpty && BenchRunner.sustains(clean))
        let held = Self.analysed(held: ["BTN_LEFT"])
        #expect(held.heldAtEnd == ["BTN_LEFT"])
        #expect(!BenchRunner.sustains(held), "a stream that leaves a button held is not sustained, whatever its latency")
        #expect(Self.bench.line(held).hasSuffix(", HELD AT THE END: BTN_LEFT"))
        let results = ["fd": BenchRunner.PathResult(main: clean, ladder: [BenchRung(rateHz: 200, required: 1, repetitions: [held])],
                                                    maxSustainedHz: nil)]
        #expect(BenchRunner.held(results, paths: ["fd"]) == ["fd at 100 Hz: BTN_LEFT"])
        #expect(BenchRunner.held(["fd": BenchRunner.PathResult(main: clean, ladder: [], maxSustainedHz: nil)], paths: ["fd"]).isEmpty)
        let json = BenchRunner.json(results, paths: ["fd"], settings: .init(), rig: "vm", kernel: "6.1", bluez: nil)
        #expect(json.contains("\"heldAtEnd\"") && json.contains("\"BTN_LEFT\""), "bench.json records it: \(json)")
    }

    @Test("soak: held at the end fails it, and the total line and soak.json name it")
    func soak() {
        let minute = SoakRunner.Minute(minute: 1, sent: 10, verified: 10, latency: LatencySummary(count: 10, p50: 1, p95: 2, p99: 3, max: 4),
                                       residentKiB: nil)
        var summary = SoakRunner.Summary(minutes: [minute], lostByLink: 0, sent: 10, readerDrops: 0)
        #expect(summary.passed && summary.totalLine.hasSuffix("; nothing held"))
        summary.heldAtEnd = ["KEY_LEFTSHIFT"]
        #expect(!summary.passed)
        #expect(summary.totalLine.hasSuffix("; HELD AT THE END: KEY_LEFTSHIFT"))
        let json = summary.json(rig: "vm", rateHz: 120, path: "fd")
        #expect(json.contains("\"heldAtEnd\"") && json.contains("\"KEY_LEFTSHIFT\""), "soak.json records it: \(json)")
    }

    @Test("calibrate: calibrate.json records each stream that ended with something held")
    func calibrate() {
        var results = CalibrationResults(rig: "vm", kernel: "6.1", injection: [:], rateHz: 100, count: 10, rounds: 1, rows: [])
        #expect(results.jsonText.contains("\"heldAtEnd\"") && !results.jsonText.contains("BTN_LEFT"))
        results.heldAtEnd = ["hid with 5 ms injected: BTN_LEFT"]
        #expect(results.jsonText.contains("\"hid with 5 ms injected: BTN_LEFT\""))
    }
}
