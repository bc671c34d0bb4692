package import LatencyStats
package import Records

/// Each gesture kind's p95 in a run against the same kind's p95 in a baseline run.
///
/// The rule (docs/report.md):
/// - a kind **regressed** when both runs have at least 10 samples of it, the current p95 is more than 1.2 × the
///   baseline p95, and more than 1 ms above it;
/// - it **improved** symmetrically: current p95 below baseline p95 / 1.2, and more than 1 ms below it;
/// - otherwise it is **unchanged**;
/// - with fewer than 10 samples in either run there are **too few samples** to judge;
/// - a kind only in the current run is **new**, only in the baseline **gone**.
///
/// Both limits must be crossed: 20 % alone flags noise on sub-millisecond kinds, 1 ms alone flags noise on slow
/// ones. 10 samples is the least for a p95 that is not simply the largest sample.
package struct BaselineComparison: Sendable, Equatable {
    package enum Verdict: String, Sendable, Hashable, CaseIterable {
        case regressed, improved, unchanged
        case tooFewSamples = "too few samples"
        case new, gone
    }

    /// One kind: both distributions (nil on the side it is missing from) and the verdict.
    package struct KindComparison: Sendable, Equatable {
        package var kind: String
        package var verdict: Verdict
        package var current: LatencySummary?
        package var baseline: LatencySummary?

        package init(kind: String, verdict: Verdict, current: LatencySummary?, baseline: LatencySummary?) {
            self.kind = kind
            self.verdict = verdict
            self.current = current
            self.baseline = baseline
        }

        /// Current p95 / baseline p95, when both exist and the baseline's is above 0.
        package var ratio: Double? {
            guard let now = current?.p95, let before = baseline?.p95, before > 0 else { return nil }
            return now / before
        }

        /// Current p95 − baseline p95, in ms.
        package var differenceMs: Double? {
            guard let now = current?.p95, let before = baseline?.p95 else { return nil }
            return now - before
        }
    }

    /// Fewest samples of a kind, in each run, for a verdict on its p95.
    package static let minimumSamples = 10
    /// How many times slower (or faster) the p95 must be.
    package static let ratioLimit = 1.2
    /// How many ms slower (or faster) the p95 must be as well.
    package static let differenceLimitMs = 1.0

    /// Current kinds in the current run's order, then the kinds gone since the baseline.
    package var kinds: [KindComparison]

    /// Compares the `latency.byKind` of two runs.
    ///
    /// - Parameters:
    ///   - current: the run under review.
    ///   - baseline: the run it is measured against (a merged results.json does as well).
    package init(current: RunResults, baseline: RunResults) {
        self.init(current: current.latency, baseline: baseline.latency)
    }

    package init(current: RunLatency, baseline: RunLatency) {
        var kinds: [KindComparison] = current.byKind.map { now in
            guard let before = baseline.kind(now.kind) else {
                return KindComparison(kind: now.kind, verdict: .new, current: now.summary, baseline: nil)
            }
            return KindComparison(
                kind: now.kind, verdict: Self.verdict(current: now.summary, baseline: before.summary),
                current: now.summary, baseline: before.summary)
        }
        for before in baseline.byKind where current.kind(before.kind) == nil {
            kinds.append(KindComparison(kind: before.kind, verdict: .gone, current: nil, baseline: before.summary))
        }
        self.kinds = kinds
    }

    /// The rule for a kind present in both runs.
    ///
    /// - Returns: `.tooFewSamples` below `minimumSamples` on either side (or without a p95), else `.regressed`,
    ///   `.improved` or `.unchanged`.
    package static func verdict(current: LatencySummary, baseline: LatencySummary) -> Verdict {
        guard current.count >= minimumSamples, baseline.count >= minimumSamples,
              let now = current.p95, let before = baseline.p95
        else { return .tooFewSamples }
        if now > before * ratioLimit && now - before > differenceLimitMs { return .regressed }
        if now < before / ratioLimit && before - now > differenceLimitMs { return .improved }
        return .unchanged
    }

    package var regressions: [KindComparison] { kinds.filter { $0.verdict == .regressed } }
    package var improvements: [KindComparison] { kinds.filter { $0.verdict == .improved } }
    package var hasRegression: Bool { !regressions.isEmpty }

    /// The rule in words, for reports.
    package static let ruleText = """
        A kind regressed when both runs have at least \(minimumSamples) samples of it and its p95 is more than \
        \(ratioLimitText) × the baseline's and more than \(differenceLimitText) ms above it; improved when below \
        the baseline's / \(ratioLimitText) and more than \(differenceLimitText) ms below; otherwise unchanged. \
        Fewer than \(minimumSamples) samples in either run: too few samples; a kind in one run only: new or gone.
        """

    private static var ratioLimitText: String { Formatting.plain(ratioLimit) }
    private static var differenceLimitText: String { Formatting.plain(differenceLimitMs) }
}
