package import LatencyStats
package import Records

/// A run's step latencies against a reference (a baseline run, or earlier runs pooled), per transport and gesture
/// kind, under the one `RegressionRule` (docs/report.md, "The regression rule").
///
/// A group only in the current run is **new**, only in the reference **gone**; the others get the rule's verdict:
/// regressed, improved, unchanged or too few samples. m of the rule's correction is the number of groups with
/// enough samples on both sides.
package struct BaselineComparison: Sendable, Equatable {
    package enum Verdict: String, Sendable, Hashable, CaseIterable {
        case regressed, improved, unchanged
        case tooFewSamples = "too few samples"
        case new, gone

        init(_ verdict: RegressionRule.Verdict) {
            switch verdict {
            case .regressed: self = .regressed
            case .improved: self = .improved
            case .unchanged: self = .unchanged
            case .tooFewSamples: self = .tooFewSamples
            }
        }
    }

    /// One group: both distributions (nil on the side it is missing from), the verdict and the rule's figures.
    package struct Entry: Sendable, Equatable {
        package var group: LatencyGroup
        package var verdict: Verdict
        package var current: LatencySummary?
        package var baseline: LatencySummary?
        /// The rule's judgement, for a group on both sides.
        package var shift: LatencyShift?

        package init(group: LatencyGroup, verdict: Verdict, current: LatencySummary?, baseline: LatencySummary?,
                     shift: LatencyShift? = nil)
        {
            self.group = group
            self.verdict = verdict
            self.current = current
            self.baseline = baseline
            self.shift = shift
        }

        /// Current p50 − reference p50, in ms.
        package var differenceMs: Double? { shift?.shiftMs }
    }

    package var rule: RegressionRule
    /// The current run's groups (transport, then kind), then the groups gone since the reference.
    package var entries: [Entry]
    /// m of the rule's correction: the groups judged.
    package var comparisons: Int

    /// Compares a run with one baseline run (a merged results.json does as well).
    package init(current: RunResults, baseline: RunResults, rule: RegressionRule = .standard) {
        self.init(current: current, reference: [baseline], rule: rule)
    }

    /// Compares a run with earlier runs, their samples pooled.
    package init(current: RunResults, reference: [RunResults], rule: RegressionRule = .standard) {
        var pooled: [LatencyGroup: [Double]] = [:]
        for run in reference {
            for (group, samples) in run.samplesByGroup { pooled[group, default: []] += samples }
        }
        self.init(current: current.samplesByGroup, reference: pooled.keys.sorted().map { ($0, pooled[$0]!) }, rule: rule)
    }

    /// Compares samples by group.
    package init(current: [(group: LatencyGroup, samples: [Double])],
                 reference: [(group: LatencyGroup, samples: [Double])], rule: RegressionRule = .standard)
    {
        self.rule = rule
        let before = Dictionary(reference.map { ($0.group, $0.samples) }, uniquingKeysWith: +)
        let now = Dictionary(current.map { ($0.group, $0.samples) }, uniquingKeysWith: +)
        let comparisons = current.filter { entry in
            entry.samples.count >= rule.minimumSamples && (before[entry.group]?.count ?? 0) >= rule.minimumSamples
        }.count
        self.comparisons = comparisons
        var entries: [Entry] = current.map { group, samples in
            guard let earlier = before[group] else {
                return Entry(group: group, verdict: .new, current: LatencyRecorder(samples).summary, baseline: nil)
            }
            let shift = rule.judge(current: samples, reference: earlier, comparisons: comparisons)
            return Entry(group: group, verdict: Verdict(shift.verdict), current: LatencyRecorder(samples).summary,
                         baseline: LatencyRecorder(earlier).summary, shift: shift)
        }
        for (group, samples) in reference where now[group] == nil {
            entries.append(Entry(group: group, verdict: .gone, current: nil, baseline: LatencyRecorder(samples).summary))
        }
        self.entries = entries
    }

    package var regressions: [Entry] { entries.filter { $0.verdict == .regressed } }
    package var improvements: [Entry] { entries.filter { $0.verdict == .improved } }
    package var hasRegression: Bool { !regressions.isEmpty }

    /// The rule in words, for reports.
    package var ruleText: String { rule.text }
}
