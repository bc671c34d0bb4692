/// When a run's step latencies count as slower (or faster) than earlier runs': the one rule behind
/// `hil report --baseline`, `hil run --baseline` and `hil report --history` (docs/report.md, "The regression rule").
///
/// A shift is flagged only when it is both
/// - **significant**: the Mann–Whitney U test (`MannWhitneyU`, two-sided, normal approximation with tie and
///   continuity corrections) of the run's samples against the reference's gives p < α / m, where α = 0.01 and m is
///   the number of groups (transport and gesture kind) compared in that run: Bonferroni's correction, so that a run
///   of an unchanged build is flagged in at most about 1 % of runs however many groups it has; and
/// - **large enough to matter**: the p50 moved by at least 1 ms **and** by at least 10 % of the reference's p50,
///   in the direction the test found.
///
/// With fewer than 5 samples on either side there is no verdict. The rule is pure: samples in, verdict out.
package struct RegressionRule: Sendable, Equatable {
    package enum Verdict: String, Sendable, Hashable, CaseIterable {
        case regressed, improved, unchanged
        case tooFewSamples = "too few samples"
    }

    /// The family-wise significance level of one run (every group together).
    package var alpha: Double
    /// The least p50 shift that matters, in ms.
    package var minimumShiftMs: Double
    /// The least p50 shift that matters, as a share of the reference's p50.
    package var minimumShiftFraction: Double
    /// Fewest samples on each side for a verdict.
    package var minimumSamples: Int

    package init(alpha: Double, minimumShiftMs: Double, minimumShiftFraction: Double, minimumSamples: Int) {
        self.alpha = alpha
        self.minimumShiftMs = minimumShiftMs
        self.minimumShiftFraction = minimumShiftFraction
        self.minimumSamples = minimumSamples
    }

    /// The rule every report uses.
    package static let standard = RegressionRule(alpha: 0.01, minimumShiftMs: 1, minimumShiftFraction: 0.1, minimumSamples: 5)

    /// Judges one group's samples.
    ///
    /// - Parameters:
    ///   - current: the run's step latencies of the group, in ms.
    ///   - reference: the earlier runs' step latencies of the same group, pooled.
    ///   - comparisons: how many groups the run compares (m of the correction), at least 1.
    /// - Returns: the verdict with the figures behind it.
    package func judge(current: [Double], reference: [Double], comparisons: Int) -> LatencyShift {
        let now = LatencyRecorder(current).percentile(50)
        let before = LatencyRecorder(reference).percentile(50)
        var shift = LatencyShift(
            verdict: .tooFewSamples, currentCount: current.count, referenceCount: reference.count, currentP50: now,
            referenceP50: before, test: nil, level: alpha / Double(Swift.max(comparisons, 1)))
        guard current.count >= minimumSamples, reference.count >= minimumSamples,
              let test = MannWhitneyU(current, reference), let now, let before
        else { return shift }
        shift.test = test
        let moved = now - before
        let large = abs(moved) >= minimumShiftMs && abs(moved) >= minimumShiftFraction * before
        shift.verdict = switch (test.pValue < shift.level, large) {
        case (true, true) where test.z > 0 && moved > 0: .regressed
        case (true, true) where test.z < 0 && moved < 0: .improved
        default: .unchanged
        }
        return shift
    }

    /// The rule in words, for reports.
    package var text: String {
        "Flagged when the Mann–Whitney U test (two-sided, tie-corrected) of the run's step latencies against the "
            + "reference's gives p < \(Self.plain(alpha)) / m (Bonferroni over the m transport and gesture kind groups "
            + "compared) and the p50 moved by at least \(Self.plain(minimumShiftMs)) ms and "
            + "\(Self.plain(minimumShiftFraction * 100)) % of the reference's p50; fewer than \(minimumSamples) samples "
            + "on either side: too few samples."
    }

    private static func plain(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}

/// One group's verdict under `RegressionRule` and what it rests on.
package struct LatencyShift: Sendable, Equatable {
    package var verdict: RegressionRule.Verdict
    package var currentCount: Int
    package var referenceCount: Int
    package var currentP50: Double?
    package var referenceP50: Double?
    /// The test, when both sides had enough samples.
    package var test: MannWhitneyU?
    /// The p-value a shift must be under: α / m.
    package var level: Double

    package init(verdict: RegressionRule.Verdict, currentCount: Int, referenceCount: Int, currentP50: Double?,
                 referenceP50: Double?, test: MannWhitneyU?, level: Double)
    {
        self.verdict = verdict
        self.currentCount = currentCount
        self.referenceCount = referenceCount
        self.currentP50 = currentP50
        self.referenceP50 = referenceP50
        self.test = test
        self.level = level
    }

    /// Current p50 − reference p50, in ms.
    package var shiftMs: Double? {
        guard let now = currentP50, let before = referenceP50 else { return nil }
        return now - before
    }

    /// The shift as a share of the reference's p50; nil when that is 0 or unknown.
    package var shiftFraction: Double? {
        guard let shift = shiftMs, let before = referenceP50, before > 0 else { return nil }
        return shift / before
    }

    /// The test found a difference at the corrected level (whatever its size).
    package var significant: Bool { (test?.pValue ?? 1) < level }
}
