import Bench
import Foundation
import LatencyStats
import Records
import StrictJSON
import Testing

/// `hil calibrate`'s arithmetic without a rig: the order the rounds take the delays in, each transport's streams
/// pooled per delay with its shift from the baseline, and calibrate.json.
@Suite("Calibration: known delays against the measured shift")
struct CalibrationTests {
    @Test("the baseline is always measured; each round starts one delay further, so drift falls on every delay alike")
    func order() {
        #expect(CalibrationRunner.order([5, 20], round: 0) == [0, 5, 20])
        #expect(CalibrationRunner.order([20, 0, 5], round: 1) == [5, 20, 0])
        #expect(CalibrationRunner.order([0, 5, 20], round: 2) == [20, 0, 5])
        #expect(CalibrationRunner.order([0, 5, 20], round: 3) == [0, 5, 20])
        #expect(CalibrationRunner.order([], round: 0) == [0])
    }

    static func stream(_ transport: String, samples: [Double]) -> BenchRunner.Stream {
        var stream = BenchRunner.Stream(
            path: transport, rateHz: 100, sent: samples.count + 1, received: samples.count, achievedHz: 100,
            latency: LatencyRecorder(samples).summary, stages: ["link": LatencyRecorder(samples.map { $0 - 0.2 }).summary])
        stream.latencySamples = samples
        return stream
    }

    @Test("streams pooled per transport and delay; the shift is each delay's p50 minus the baseline's, with an interval")
    func rows() throws {
        var random = SplitMix64(seed: 37)
        func draw(_ plus: Double) -> [Double] { (0..<200).map { _ in 1 + Double(random.next() % 1000) / 1000 + plus } }
        let streams: [(transport: String, delay: Double, stream: BenchRunner.Stream)] = [
            ("tcp", 0, Self.stream("tcp", samples: draw(0))), ("tcp", 5, Self.stream("tcp", samples: draw(5))),
            ("udp", 5, Self.stream("udp", samples: draw(5))), ("udp", 0, Self.stream("udp", samples: draw(0))),
            ("tcp", 5, Self.stream("tcp", samples: draw(5))), ("tcp", 0, Self.stream("tcp", samples: draw(0))),
        ]
        let rows = CalibrationRunner.rows(streams, transports: ["tcp", "udp"])
        #expect(rows.map(\.transport) == ["tcp", "tcp", "udp", "udp"])
        #expect(rows.map(\.injectedMs) == [0, 5, 0, 5])
        #expect(rows.map(\.sent) == [402, 402, 201, 201])
        #expect(rows.map(\.verified) == [400, 400, 200, 200])
        #expect(rows[0].shiftP50Ms == nil && rows[2].shiftP50Ms == nil)
        for row in [rows[1], rows[3]] {
            let shift = try #require(row.shiftP50Ms)
            #expect(abs(shift - 5) < 0.15, "\(row)")
            #expect(try #require(row.shiftLowMs) < shift && shift < (try #require(row.shiftHighMs)))
            #expect(abs(try #require(row.errorMs)) < 0.15)
        }
        #expect(abs(try #require(rows[1].linkP50Ms) - (try #require(rows[1].p50Ms)) + 0.2) < 0.05)
    }

    @Test("a delay without a baseline has no shift rather than a shift from nothing")
    func noBaseline() {
        let rows = CalibrationRunner.rows([("udp", 5, Self.stream("udp", samples: [6, 7, 8]))], transports: ["udp"])
        #expect(rows.count == 1)
        #expect(rows[0].shiftP50Ms == nil && rows[0].errorMs == nil)
    }

    @Test("calibrate.json: format, how each transport was delayed, one row per transport and delay")
    func json() throws {
        let results = CalibrationResults(
            rig: "vm", kernel: "6.1.0-28-amd64", injection: ["udp": "netem delay D on veth0"], rateHz: 100, count: 300, rounds: 3,
            rows: [CalibrationResults.Row(transport: "udp", injectedMs: 0, sent: 900, verified: 899, p50Ms: 1.0344, linkP50Ms: 0.5),
                   CalibrationResults.Row(transport: "udp", injectedMs: 5, sent: 900, verified: 900, p50Ms: 6.1, linkP50Ms: 5.6,
                                          shiftP50Ms: 5.0656, shiftLowMs: 4.98, shiftHighMs: 5.1)])
        let value = try JSONParser().parse(Array(results.jsonText.utf8))
        guard case .object(let document) = value, case .array(let rows)? = document["rows"], case .object(let row)? = rows.last else {
            Issue.record("not the expected shape: \(results.jsonText)")
            return
        }
        #expect(document["format"] == .string("hil-calibrate/1"))
        #expect(document["injection"] == .object(JSONObject([("udp", .string("netem delay D on veth0"))])))
        #expect(row["injectedMs"] == .number(5))
        #expect(row["shiftP50Ms"] == .number(5.066))
        #expect(row["shiftIntervalMs"] == .array([.number(4.98), .number(5.1)]))
        guard case .object(let baseline)? = rows.first else { return }
        #expect(baseline["shiftP50Ms"] == .null && baseline["shiftIntervalMs"] == .null)
        #expect(baseline["p50Ms"] == .number(1.034))
    }
}
