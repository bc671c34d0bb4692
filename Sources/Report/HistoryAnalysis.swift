package import LatencyStats
package import Records

/// What a history page shows, computed from runs in time order: each run's conditions and what changed since the
/// run before, each transport and gesture kind's p50 and p95 with 95 % intervals run by run, each run's verdict
/// against the earlier runs under the same conditions (`RegressionRule`), and each scenario's outcome run by run.
package struct HistoryAnalysis: Sendable {
    /// One run and how it compares.
    package struct Run: Sendable {
        package var run: RunHistory.Run
        /// What changed since the run before it (none for the first).
        package var changes: [RunConditions.Change]
        /// The earlier runs this one is compared with (indices into `runs`): the up to `referenceRuns` latest with
        /// no changed condition. Empty for the first run and after a change.
        package var reference: [Int]
        /// The comparison with `reference`, pooled; nil without a reference.
        package var comparison: BaselineComparison?

        package var regressions: [BaselineComparison.Entry] { comparison?.regressions ?? [] }
    }

    /// One group's figures in one run.
    package struct Point: Sendable {
        package var count: Int
        package var p50: PercentileInterval
        package var p95: PercentileInterval
        /// The verdict of the group in this run's comparison; nil without one.
        package var verdict: BaselineComparison.Verdict?
    }

    /// One transport and gesture kind across the runs.
    package struct Series: Sendable {
        package var group: LatencyGroup
        /// One per run, nil where the run has no sample of the group.
        package var points: [Point?]
    }

    /// How many earlier runs a run is compared with, at most: a week of nights.
    package static let referenceRuns = 7

    package var runs: [Run]
    package var series: [Series]
    package var grid: ScenarioGrid
    /// Folders under the history's folders that were not readable runs.
    package var skipped: [RunHistory.Skipped]
    package var rule: RegressionRule

    package init(_ history: RunHistory, rule: RegressionRule = .standard) {
        self.rule = rule
        skipped = history.skipped
        let conditions = history.runs.map(\.results.conditions)
        var runs: [Run] = []
        for (index, run) in history.runs.enumerated() {
            let changes = index == 0 ? [] : conditions[index].changes(since: conditions[index - 1])
            let alike = (0..<index).reversed().filter { conditions[index].changes(since: conditions[$0]).isEmpty }
            let reference = Array(alike.prefix(Self.referenceRuns)).reversed() as [Int]
            let comparison = reference.isEmpty ? nil : BaselineComparison(
                current: run.results, reference: reference.map { history.runs[$0].results }, rule: rule)
            runs.append(Run(run: run, changes: changes, reference: reference, comparison: comparison))
        }
        self.runs = runs
        series = Self.series(runs)
        grid = ScenarioGrid(history.runs.map(\.results))
    }

    /// The newest run, whose verdict nightly.sh acts on.
    package var newest: Run? { runs.last }

    private static func series(_ runs: [Run]) -> [Series] {
        let samples = runs.map { Dictionary(uniqueKeysWithValues: $0.run.results.samplesByGroup.map { ($0.group, $0.samples) }) }
        let groups = Set(samples.flatMap(\.keys)).sorted()
        return groups.map { group in
            Series(group: group, points: runs.indices.map { index in
                guard let values = samples[index][group], !values.isEmpty else { return nil }
                let intervals = PercentileInterval.of(values, percentiles: [50, 95])
                let verdict = runs[index].comparison?.entries.first { $0.group == group }?.verdict
                return Point(count: values.count, p50: intervals[0], p95: intervals[1], verdict: verdict)
            })
        }
    }
}

/// Each scenario's outcome run by run: a row per scenario file and transport, a cell per run.
package struct ScenarioGrid: Sendable {
    package enum Cell: String, Sendable, Hashable {
        case passed, failed, inconclusive, error
        case notApplicable = "not applicable"
        /// Its repeats in one run (`hil run --repeat`) disagreed.
        case flaky
        /// Not in that run.
        case absent

        /// A failure of the scenario in that run (flaky counts: a repeat did not pass).
        package var isFailure: Bool { [.failed, .inconclusive, .error, .flaky].contains(self) }
    }

    package struct Row: Sendable {
        package var file: String
        package var name: String
        package var transport: String?
        package var cells: [Cell]
        /// The radio its steps ran under in the newest run that changed it ("steps 1–4: packet error rate 10 %");
        /// nil when no step did.
        package var radio: String?

        /// In how many runs it failed, or was flaky.
        package var failures: Int { cells.filter(\.isFailure).count }
        /// It passed in some runs and failed in others: flaky across runs.
        package var unsteady: Bool { failures > 0 && cells.contains(.passed) }
    }

    /// Rows that failed in some run first (most failures first), then the others, each in first-run order.
    package var rows: [Row]

    package init(_ runs: [RunResults]) {
        var order: [String] = []
        var rows: [String: Row] = [:]
        for (index, run) in runs.enumerated() {
            var outcomes: [String: [ScenarioResult.Outcome]] = [:]
            for scenario in run.scenarios {
                let key = scenario.file + "\u{0}" + (scenario.transport ?? "")
                if rows[key] == nil {
                    order.append(key)
                    rows[key] = Row(file: scenario.file, name: scenario.name, transport: scenario.transport,
                                    cells: Array(repeating: .absent, count: runs.count))
                }
                rows[key]!.name = scenario.name
                if let radio = Self.radio(of: scenario.steps) { rows[key]!.radio = radio }
                outcomes[key, default: []].append(scenario.outcome)
            }
            for (key, seen) in outcomes { rows[key]!.cells[index] = Self.cell(seen) }
        }
        // Most failures first; equal counts keep first-run order.
        self.rows = order.enumerated().map { (position: $0.offset, row: rows[$0.element]!) }
            .sorted { ($1.row.failures, $0.position) < ($0.row.failures, $1.position) }.map(\.row)
    }

    /// Consecutive steps under the same radio, grouped: "steps 1–4: packet error rate 10 %; step 5: the rig's own".
    package static func radio(of steps: [StepResult]) -> String? {
        var groups: [(first: Int, last: Int, radio: String)] = []
        for step in steps.sorted(by: { $0.index < $1.index }) {
            guard let radio = step.radio else { continue }
            if let last = groups.last, last.radio == radio, last.last + 1 == step.index {
                groups[groups.count - 1].last = step.index
            } else {
                groups.append((step.index, step.index, radio))
            }
        }
        guard !groups.isEmpty else { return nil }
        return groups.map { group in
            (group.first == group.last ? "step \(group.first)" : "steps \(group.first)–\(group.last)") + ": \(group.radio)"
        }.joined(separator: "; ")
    }

    private static func cell(_ outcomes: [ScenarioResult.Outcome]) -> Cell {
        guard Set(outcomes).count == 1, let outcome = outcomes.first else { return .flaky }
        return switch outcome {
        case .passed: .passed
        case .failed: .failed
        case .inconclusive: .inconclusive
        case .error: .error
        case .notApplicable: .notApplicable
        }
    }
}
