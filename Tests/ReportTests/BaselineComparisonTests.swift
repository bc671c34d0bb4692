import HILTestSupport
import LatencyStats
import Records
import Report
import Testing

@Suite("Comparing with a baseline: the regression rule per transport and gesture kind")
struct BaselineComparisonTests {
    typealias Verdict = BaselineComparison.Verdict

    static func group(_ transport: String?, _ kind: String) -> LatencyGroup {
        LatencyGroup(transport: transport, kind: kind)
    }

    @Test("a +5 ms shift on one group regresses it; the others are unchanged, new or gone")
    func groups() throws {
        let reference: [(group: LatencyGroup, samples: [Double])] = [
            (Self.group("ble", "swipe"), ResultsFixtures.samples(200, in: 100...140, seed: 1)),
            (Self.group("ble", "tap"), ResultsFixtures.samples(200, in: 6...10, seed: 2)),
            (Self.group("udp", "button"), ResultsFixtures.samples(50, in: 1...2, seed: 3)),
        ]
        let current: [(group: LatencyGroup, samples: [Double])] = [
            (Self.group("ble", "swipe"), ResultsFixtures.samples(40, in: 100...140, seed: 4)),
            (Self.group("ble", "tap"), ResultsFixtures.samples(40, in: 6...10, seed: 5).map { $0 + 5 }),
            (Self.group("tcp", "tap"), ResultsFixtures.samples(40, in: 2...3, seed: 6)),
        ]
        let comparison = BaselineComparison(current: current, reference: reference)
        #expect(comparison.entries.map(\.group.label) == ["ble swipe", "ble tap", "tcp tap", "udp button"])
        #expect(comparison.entries.map(\.verdict) == [.unchanged, .regressed, .new, .gone])
        #expect(comparison.comparisons == 2)
        let tap = comparison.entries[1]
        #expect(tap.shift?.level == 0.01 / 2)
        #expect(try #require(tap.differenceMs) > 4)
        #expect(tap.current?.count == 40 && tap.baseline?.count == 200)
        #expect(comparison.regressions.map(\.group.label) == ["ble tap"])
        #expect(comparison.entries[2].baseline == nil && comparison.entries[3].current == nil)
    }

    @Test("one slow step among 10 is no regression (the old p95 rule flagged it: a p95 of 10 steps is their largest)")
    func outlier() {
        let before = ResultsFixtures.samples(10, in: 8...10, seed: 8)
        var now = ResultsFixtures.samples(10, in: 8...10, seed: 9)
        now[3] = 40
        let comparison = BaselineComparison(current: [(Self.group("ble", "tap"), now)],
                                            reference: [(Self.group("ble", "tap"), before)])
        #expect(comparison.entries.map(\.verdict) == [.unchanged])
        #expect(!comparison.hasRegression)
    }

    @Test("the comparison's verdicts are RegressionRule.standard's, with m the groups judged")
    func sameRule() {
        let before = ResultsFixtures.samples(30, in: 5...9, seed: 10), now = ResultsFixtures.samples(30, in: 6...11, seed: 11)
        let comparison = BaselineComparison(current: [(Self.group(nil, "tap"), now)], reference: [(Self.group(nil, "tap"), before)])
        #expect(comparison.entries[0].shift == RegressionRule.standard.judge(current: now, reference: before, comparisons: 1))
        #expect(comparison.ruleText == RegressionRule.standard.text)
    }

    @Test("between loaded runs: groups by transport and kind from the steps' samples; too few samples are not judged")
    func betweenRuns() throws {
        let current = try ResultsFixtures.realisticResults()
        let baseline = try RunResults.parse(
            Array(ResultsFixtures.shard(index: 1, count: 1, host: "b", swipes: ResultsFixtures.samples(12, in: 100...150, seed: 9),
                                        taps: ResultsFixtures.samples(12, in: 5...9, seed: 10)).utf8),
            file: "baseline.json")
        let comparison = BaselineComparison(current: current, baseline: baseline)
        // The realistic run has 3 swipes and 4 taps: fewer than 5, too few to judge; buttons are new.
        #expect(comparison.entries.map(\.verdict) == [.new, .tooFewSamples, .tooFewSamples])
        #expect(comparison.comparisons == 0)
        #expect(!comparison.hasRegression)
    }

    @Test("several reference runs are pooled")
    func pooled() throws {
        func run(_ taps: [Double], host: String) throws -> RunResults {
            try RunResults.parse(Array(ResultsFixtures.shard(index: 1, count: 1, host: host, swipes: [], taps: taps).utf8),
                                 file: host)
        }
        let first = try run(ResultsFixtures.samples(4, in: 5...9, seed: 1), host: "a")
        let second = try run(ResultsFixtures.samples(4, in: 5...9, seed: 2), host: "b")
        let current = try run(ResultsFixtures.samples(8, in: 5...9, seed: 3), host: "c")
        // 4 samples each are too few alone; pooled, 8 are enough for a verdict.
        #expect(BaselineComparison(current: current, baseline: first).entries[0].verdict == .tooFewSamples)
        let both = BaselineComparison(current: current, reference: [first, second])
        #expect(both.entries[0].verdict == .unchanged)
        #expect(both.entries[0].baseline?.count == 8)
    }
}
