import LatencyStats
import Records
import Report
import Testing

@Suite("Comparing with a baseline: the p95 rule at its boundaries")
struct BaselineComparisonTests {
    typealias Verdict = BaselineComparison.Verdict

    static func summary(p95: Double, count: Int = 50) -> LatencySummary {
        LatencySummary(count: count, p50: p95 / 2, p95: p95, p99: p95 * 1.1, max: p95 * 1.2)
    }

    static func verdict(baseline: Double, current: Double, baselineCount: Int = 50, currentCount: Int = 50) -> Verdict {
        BaselineComparison.verdict(
            current: summary(p95: current, count: currentCount), baseline: summary(p95: baseline, count: baselineCount))
    }

    @Test("19 % worse is unchanged, 21 % worse regressed (well above 1 ms)")
    func ratioBoundary() {
        #expect(Self.verdict(baseline: 100, current: 119) == .unchanged)
        #expect(Self.verdict(baseline: 100, current: 121) == .regressed)
        // Exactly 1.2× is not more than 1.2×.
        #expect(Self.verdict(baseline: 10, current: 12) == .unchanged)
    }

    @Test("more than 20 % worse but only 0.9 ms is unchanged; 1.1 ms regressed")
    func differenceBoundary() {
        #expect(Self.verdict(baseline: 4, current: 4.9) == .unchanged)
        #expect(Self.verdict(baseline: 4, current: 5.1) == .regressed)
    }

    @Test("improved symmetrically: below baseline / 1.2 and more than 1 ms below")
    func improved() {
        #expect(Self.verdict(baseline: 121, current: 100) == .improved)
        #expect(Self.verdict(baseline: 119, current: 100) == .unchanged)
        #expect(Self.verdict(baseline: 5.1, current: 4) == .improved)
        #expect(Self.verdict(baseline: 4.9, current: 4) == .unchanged)
    }

    @Test("9 samples on either side are too few; 10 are enough")
    func sampleBoundary() {
        #expect(Self.verdict(baseline: 10, current: 100, currentCount: 9) == .tooFewSamples)
        #expect(Self.verdict(baseline: 10, current: 100, baselineCount: 9) == .tooFewSamples)
        #expect(Self.verdict(baseline: 10, current: 100, baselineCount: 10, currentCount: 10) == .regressed)
        #expect(Self.verdict(baseline: 100, current: 10, baselineCount: 10, currentCount: 10) == .improved)
    }

    @Test("kinds in one run only are new or gone; every kind has both p95s, counts and the ratio")
    func kinds() throws {
        let current = RunLatency(all: .empty, byKind: [
            KindLatency(kind: "swipe", summary: Self.summary(p95: 250, count: 12)),
            KindLatency(kind: "pinch", summary: Self.summary(p95: 30, count: 11)),
            KindLatency(kind: "tap", summary: Self.summary(p95: 9, count: 40)),
        ])
        let baseline = RunLatency(all: .empty, byKind: [
            KindLatency(kind: "tap", summary: Self.summary(p95: 9.5, count: 38)),
            KindLatency(kind: "swipe", summary: Self.summary(p95: 200, count: 20)),
            KindLatency(kind: "button", summary: Self.summary(p95: 12, count: 30)),
        ])
        let comparison = BaselineComparison(current: current, baseline: baseline)
        #expect(comparison.kinds.map(\.kind) == ["swipe", "pinch", "tap", "button"])
        #expect(comparison.kinds.map(\.verdict) == [.regressed, .new, .unchanged, .gone])
        #expect(comparison.regressions.map(\.kind) == ["swipe"])
        #expect(comparison.hasRegression)

        let swipe = comparison.kinds[0]
        #expect(swipe.current?.p95 == 250 && swipe.baseline?.p95 == 200)
        #expect(swipe.current?.count == 12 && swipe.baseline?.count == 20)
        #expect(swipe.ratio == 1.25)
        #expect(swipe.differenceMs == 50)
        #expect(comparison.kinds[1].baseline == nil && comparison.kinds[1].ratio == nil)
        #expect(comparison.kinds[3].current == nil)
    }

    @Test("between two loaded runs: the kinds' p95s from each run's latency")
    func betweenRuns() throws {
        let current = try ResultsFixtures.realisticResults()
        let baseline = try RunResults.parse(
            Array(ResultsFixtures.shard(index: 1, count: 1, host: "b", swipes: ResultsFixtures.samples(12, in: 100...150, seed: 9),
                                        taps: ResultsFixtures.samples(12, in: 5...9, seed: 10)).utf8),
            file: "baseline.json")
        let comparison = BaselineComparison(current: current, baseline: baseline)
        // The realistic run has 3 swipes and 4 taps: too few to judge; buttons are new.
        #expect(comparison.kinds.map(\.verdict) == [.new, .tooFewSamples, .tooFewSamples])
        #expect(!comparison.hasRegression)
    }
}
