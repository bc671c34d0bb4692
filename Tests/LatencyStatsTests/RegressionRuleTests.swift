import Foundation
import LatencyStats
import Testing

/// Latency-like samples: log-normal around a median (8 ms by default), written to the µs as results.json has them.
struct LatencySamples {
    var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    mutating func draw(_ count: Int, median: Double = 8, spread: Double = 0.3, plus shift: Double = 0) -> [Double] {
        (0..<count).map { _ in ((median * exp(spread * normal()) + shift) * 1000).rounded() / 1000 }
    }

    /// A standard normal value (Box–Muller).
    private mutating func normal() -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &generator)
        let u2 = Double.random(in: 0..<1, using: &generator)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

@Suite("The Mann–Whitney U test")
struct MannWhitneyUTests {
    @Test("U, z and the two-sided p of textbook samples, as scipy.stats.mannwhitneyu(method='asymptotic') gives them")
    func knownValues() throws {
        let separated = try #require(MannWhitneyU([1, 2, 3], [4, 5, 6]))
        #expect(separated.u == 0)
        #expect(abs(separated.z - -1.7457431218879391) < 1e-12)
        #expect(abs(separated.pValue - 0.0808555983700523) < 1e-12)
        // Ties get mid-ranks and shrink the variance.
        let tied = try #require(MannWhitneyU([1, 2, 2, 3], [2, 3, 4, 5]))
        #expect(tied.u == 2.5)
        #expect(abs(tied.pValue - 0.1366582477381475) < 1e-12)
        #expect(tied.probabilityFirstLarger == 2.5 / 16)
    }

    @Test("identical samples give p = 1; an empty sample gives no test")
    func degenerate() throws {
        #expect(try #require(MannWhitneyU([5, 5, 5], [5, 5])).pValue == 1)
        #expect(MannWhitneyU([], [1]) == nil)
    }

    @Test("the sign of z says which sample tends larger")
    func direction() throws {
        var samples = LatencySamples(seed: 1)
        let slow = samples.draw(50, plus: 5), fast = samples.draw(50)
        #expect(try #require(MannWhitneyU(slow, fast)).z > 0)
        #expect(try #require(MannWhitneyU(fast, slow)).z < 0)
    }
}

@Suite("The regression rule: significant and large enough to matter")
struct RegressionRuleTests {
    let rule = RegressionRule.standard

    @Test("a +5 ms shift of 8 ms steps is flagged as a regression, and −5 ms as an improvement")
    func shiftFlagged() throws {
        var samples = LatencySamples(seed: 7)
        let reference = samples.draw(300)
        let slower = rule.judge(current: samples.draw(60, plus: 5), reference: reference, comparisons: 8)
        #expect(slower.verdict == .regressed)
        #expect(slower.significant)
        #expect(try #require(slower.shiftMs) > 4)
        let faster = rule.judge(current: samples.draw(60, median: 13), reference: samples.draw(300, median: 13, plus: 5),
                                comparisons: 8)
        #expect(faster.verdict == .improved)
    }

    @Test("two samples of one distribution, 200 seeded trials: significant at about α or less, flagged no more often")
    func falseAlarmRate() {
        var samples = LatencySamples(seed: 2024)
        var significant = 0, flagged = 0
        let trials = 200
        for _ in 0..<trials {
            let shift = rule.judge(current: samples.draw(60), reference: samples.draw(300), comparisons: 1)
            if shift.significant { significant += 1 }
            if shift.verdict == .regressed || shift.verdict == .improved { flagged += 1 }
        }
        // α = 0.01 expects 2 of 200; 5 allows for the luck of 200 trials (P(X ≥ 6) ≈ 1.6 % for Binomial(200, 0.01)).
        #expect(significant <= 5, "significant in \(significant) of \(trials) trials of an unchanged distribution")
        #expect(flagged <= significant)
    }

    @Test("Bonferroni: the level is α / m, so a p that passes alone fails among many comparisons")
    func correction() throws {
        var samples = LatencySamples(seed: 11)
        let reference = samples.draw(40), current = samples.draw(40, plus: 1.6)
        let alone = rule.judge(current: current, reference: reference, comparisons: 1)
        let many = rule.judge(current: current, reference: reference, comparisons: 40)
        #expect(alone.level == 0.01 && many.level == 0.01 / 40)
        let p = try #require(alone.test?.pValue)
        #expect(p < 0.01 && p >= 0.01 / 40, "pick samples whose p lies between the two levels (p = \(p))")
        #expect(alone.verdict == .regressed)
        #expect(many.verdict == .unchanged)
    }

    @Test("a large shift in tiny samples is not significant: 5 steps 50 ms slower than 5 others")
    func tinySamples() {
        let shift = rule.judge(current: [60, 61, 62, 63, 64], reference: [10, 11, 12, 13, 14], comparisons: 1)
        #expect(shift.verdict == .unchanged)
        #expect(!shift.significant)
        #expect(abs((shift.shiftMs ?? 0) - 50) < 0.1)
        #expect(rule.judge(current: [60, 61, 62, 63], reference: [10, 11, 12, 13, 14], comparisons: 1).verdict == .tooFewSamples)
    }

    @Test("significant but small does not matter: 0.5 ms, and 1.5 ms on a 20 ms p50 (7.5 %)")
    func tooSmall() {
        var samples = LatencySamples(seed: 5)
        let tight = rule.judge(current: samples.draw(2000, spread: 0.05, plus: 0.5),
                               reference: samples.draw(2000, spread: 0.05), comparisons: 1)
        #expect(tight.significant)
        #expect(tight.verdict == .unchanged)
        let slow = rule.judge(current: samples.draw(2000, median: 20, spread: 0.05, plus: 1.5),
                              reference: samples.draw(2000, median: 20, spread: 0.05), comparisons: 1)
        #expect(slow.significant)
        #expect(slow.verdict == .unchanged)
    }
}

@Suite("Percentiles with bootstrap intervals")
struct PercentileIntervalTests {
    @Test("the same samples give the same intervals every time (fixed seed)")
    func reproducible() {
        var samples = LatencySamples(seed: 3)
        let values = samples.draw(200)
        #expect(PercentileInterval.of(values, percentiles: [50, 95]) == PercentileInterval.of(values, percentiles: [50, 95]))
    }

    @Test("each interval holds its estimate; 100 seeded samples of a known distribution: the true p50 inside ≥ 90 times")
    func coverage() throws {
        var samples = LatencySamples(seed: 99)
        var covered = 0
        for trial in 0..<100 {
            let estimate = try #require(PercentileInterval.of(samples.draw(80), percentiles: [50], resamples: 400,
                                                              seed: UInt64(trial)).first)
            let low = try #require(estimate.low), high = try #require(estimate.high)
            #expect(low <= estimate.value * 1.001 && estimate.value <= high * 1.001)
            if low <= 8 && 8 <= high { covered += 1 }
        }
        // A 95 % interval: about 95 of 100.
        #expect(covered >= 90, "the true median inside \(covered) of 100 intervals")
    }

    @Test("no interval where fewer than 2 samples lie beyond the percentile: a p95 needs 40 samples")
    func tooFew() throws {
        var samples = LatencySamples(seed: 4)
        let few = PercentileInterval.of(samples.draw(39), percentiles: [50, 95])
        #expect(few[0].low != nil && few[1].low == nil && few[1].high == nil)
        #expect(PercentileInterval.of(samples.draw(40), percentiles: [95])[0].low != nil)
        #expect(PercentileInterval.of([], percentiles: [50]).isEmpty)
    }

    @Test("nearest rank: ⌈p/100 · n⌉, at least 1")
    func nearestRank() {
        #expect(PercentileInterval.nearestRank(50, count: 10) == 5)
        #expect(PercentileInterval.nearestRank(95, count: 10) == 10)
        #expect(PercentileInterval.nearestRank(0, count: 10) == 1)
        #expect(PercentileInterval.nearestRank(95, count: 100) == 95)
    }
}
