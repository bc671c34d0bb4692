import LatencyStats
@testable import Runner
import Testing

@Suite("hil bench: what counts as a sustained rate")
struct BenchRuleTests {
    static func stream(rate: Double, sent: Int = 600, received: Int = 600, verified: Int? = nil, achieved: Double? = nil, p99: Double) -> BenchRunner.Stream {
        BenchRunner.Stream(path: "fd", rateHz: rate, sent: sent, received: received, verified: verified, achievedHz: achieved ?? rate,
                           latency: LatencySummary(count: received, p50: p99 / 2, p95: p99, p99: p99, max: p99), stages: [:])
    }

    @Test("nothing lost or unseen, 95 % of the rate, p99 within 100 ms; a queue that builds up is not sustained")
    func rule() {
        #expect(BenchRunner.sustains(Self.stream(rate: 300, p99: 12)))
        #expect(!BenchRunner.sustains(Self.stream(rate: 300, received: 599, p99: 12)))
        // Received but not seen by the verifier: injection is not proven, so not sustained either.
        #expect(!BenchRunner.sustains(Self.stream(rate: 300, verified: 598, p99: 12)))
        #expect(!BenchRunner.sustains(Self.stream(rate: 300, achieved: 284, p99: 12)))
        #expect(BenchRunner.sustains(Self.stream(rate: 300, achieved: 285, p99: 12)))
        #expect(!BenchRunner.sustains(Self.stream(rate: 300, p99: 1138)))
        #expect(BenchRunner.sustains(Self.stream(rate: 300, p99: 100)))
    }
}

@Suite("hil bench: lost commands by index")
struct BenchLostRangesTests {
    @Test("indices become ranges")
    func ranges() {
        #expect(BenchRunner.ranges([]) == "")
        #expect(BenchRunner.ranges([0, 1, 2, 7]) == "0-2, 7")
        #expect(BenchRunner.ranges([5]) == "5")
        #expect(BenchRunner.ranges([1, 3, 4, 5, 9, 10]) == "1, 3-5, 9-10")
    }
}
