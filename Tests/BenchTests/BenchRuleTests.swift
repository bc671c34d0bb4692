import LatencyStats
import Testing
@testable import Bench

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

@Suite("hil bench: a rung of repetitions")
struct BenchRungTests {
    @Test("a rung is sustained only when every repetition is, and all the repetitions asked for ran")
    func everyRepetition() {
        let good = BenchRuleTests.stream(rate: 400, p99: 12)
        let lossy = BenchRuleTests.stream(rate: 400, received: 598, p99: 12)
        #expect(BenchRung(rateHz: 400, required: 3, repetitions: [good, good, good]).sustained)
        #expect(!BenchRung(rateHz: 400, required: 3, repetitions: [good, lossy, good]).sustained)
        // The ladder stops a rung at a repetition that could not keep up: two of three is not sustained.
        #expect(!BenchRung(rateHz: 400, required: 3, repetitions: [good, good]).sustained)
        #expect(!BenchRung(rateHz: 400, required: 1, repetitions: []).sustained)
    }

    @Test("median and range over the repetitions; a repetition without latencies is infinitely slow")
    func spread() {
        let rung = BenchRung(rateHz: 300, required: 3, repetitions: [
            BenchRuleTests.stream(rate: 300, achieved: 290, p99: 30),
            BenchRuleTests.stream(rate: 300, achieved: 299, p99: 10),
            BenchRuleTests.stream(rate: 300, achieved: 297, p99: 20),
        ])
        #expect(rung.achievedHz == Spread(median: 297, min: 290, max: 299))
        #expect(rung.p99Ms == Spread(median: 20, min: 10, max: 30))
        var blind = BenchRuleTests.stream(rate: 300, p99: 10)
        blind.latency = .empty
        let withBlind = BenchRung(rateHz: 300, required: 3, repetitions: [BenchRuleTests.stream(rate: 300, p99: 10), blind])
        #expect(withBlind.p99Ms.max == .infinity)
        #expect(Spread([]) == nil)
        #expect(Spread([4, 1, 3, 2])?.median == 2.5)
    }
}
