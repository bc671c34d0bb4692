import LatencyStats
package import Records
import TextMarkup

/// A short Markdown summary of a run for a CI job page: one line of totals, the failures, a latency table per
/// step kind, and the regressions when there is a baseline.
package enum MarkdownSummary {
    /// Renders the summary.
    ///
    /// - Parameters:
    ///   - results: the run (or merged shards).
    ///   - baseline: the comparison with a baseline run, if any.
    /// - Returns: GitHub-flavoured Markdown ending with a newline.
    package static func render(_ results: RunResults, baseline: BaselineComparison? = nil) -> String {
        var lines: [String] = [totalsLine(results, baseline: baseline), ""]
        let failures = results.failures
        if !failures.isEmpty {
            lines += ["### Failures", "", "| scenario | outcome | first reason |", "|---|---|---|"]
            for scenario in failures {
                lines.append("| \(cell(scenario.name)) | \(scenario.outcome.rawValue) | \(cell(scenario.firstReason)) |")
            }
            lines.append("")
        }
        if !results.latency.byKind.isEmpty {
            lines += [
                "### Latency by gesture kind (ms)", "", "| kind | count | p50 | p95 | p99 | max |",
                "|---|---:|---:|---:|---:|---:|",
            ]
            for kind in results.latency.byKind {
                lines.append(row(cell(kind.kind), kind.summary))
            }
            lines.append(row("**all**", results.latency.all))
            lines.append("")
        }
        let transports = TransportLatency.of(results.scenarios)
        if !transports.isEmpty {
            lines += ["### Latency by transport (ms)", "", "| transport | count | p50 | p95 | p99 | max | link p50 | the product's claim |",
                      "|---|---:|---:|---:|---:|---:|---:|---|"]
            for entry in transports {
                lines.append(row(cell(entry.transport), entry.summary) + " \(Formatting.ms(entry.link?.p50)) | \(TransportLatency.claim(entry.transport) ?? "—") |")
            }
            lines.append("")
        }
        let time = PhaseBreakdown(results.scenarios)
        if time.scenarios > 0 {
            lines += ["### Where the time went", "", time.runLine(results), "",
                      "| phase | median ms | total s |", "|---|---:|---:|"]
            for phase in time.phases {
                lines.append("| \(cell(phase.name)) | \(String(format: "%.0f", phase.medianMs)) | \(String(format: "%.1f", phase.totalMs / 1000)) |")
            }
            lines.append("")
        }
        if let baseline { lines += comparisonLines(baseline) + [""] }
        while lines.last == "" { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The regressions against a reference as a table, or one line when there are none.
    static func comparisonLines(_ comparison: BaselineComparison) -> [String] {
        let regressions = comparison.regressions
        guard !regressions.isEmpty else {
            let judged = comparison.entries.filter { [.unchanged, .improved].contains($0.verdict) }.count
            let improved = comparison.improvements.map(\.group.label)
            return ["No regression against the baseline (\(judged) group\(judged == 1 ? "" : "s") judged"
                + (improved.isEmpty ? "" : "; improved: \(improved.map(cell).joined(separator: ", "))") + ")."]
        }
        var lines = [
            "### Regressions against the baseline", "",
            "| transport and kind | baseline p50 | current p50 | shift | p | samples (baseline → current) |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for entry in regressions {
            lines.append(
                "| \(cell(entry.group.label)) | \(Formatting.ms(entry.baseline?.p50)) | \(Formatting.ms(entry.current?.p50)) "
                    + "| \(Formatting.shift(entry.shift)) | \(Formatting.pValue(entry.shift)) "
                    + "| \(entry.baseline?.count ?? 0) → \(entry.current?.count ?? 0) |")
        }
        return lines + ["", "p < \(Formatting.plain(comparison.rule.alpha)) / \(comparison.comparisons) and a p50 shift of at least "
            + "\(Formatting.plain(comparison.rule.minimumShiftMs)) ms and \(Formatting.plain(comparison.rule.minimumShiftFraction * 100)) % "
            + "(docs/report.md, \"The regression rule\")."]
    }

    /// `**hil run: 40 passed, 1 failed** (41 scenarios on vm, radio connection events every 15 ms, 120 step latencies,
    /// p95 380.1 ms)`
    static func totalsLine(_ results: RunResults, baseline: BaselineComparison?) -> String {
        var facts = ["\(results.scenarios.count) scenario\(results.scenarios.count == 1 ? "" : "s")"
            + (results.rig.map { " on \($0)" } ?? "") + (results.radioFacts.map { ", radio \($0)" } ?? "")
            + (results.phone.map { ", phone \($0)" } ?? "")]
        facts.append("\(results.latency.all.count) step latencies, p95 \(Formatting.ms(results.latency.all.p95)) ms")
        if results.sources.count > 1 { facts.append("merged from \(results.sources.count) files") }
        if !results.missingShards.isEmpty {
            facts.append("missing shard\(results.missingShards.count == 1 ? "" : "s") "
                + results.missingShards.map(String.init).joined(separator: ", "))
        }
        if let baseline, baseline.hasRegression {
            facts.append("\(baseline.regressions.count) group\(baseline.regressions.count == 1 ? "" : "s") regressed")
        }
        let mark = results.failed == 0 ? "✅" : "❌"
        return "\(mark) **hil run: \(Formatting.totals(results))** (\(facts.joined(separator: ", ")))"
    }

    private static func row(_ name: String, _ summary: LatencySummary) -> String {
        "| \(name) | \(summary.count) | "
            + [summary.p50, summary.p95, summary.p99, summary.max].map(Formatting.ms).joined(separator: " | ") + " |"
    }

    /// Text for a table cell (`Markup.markdownCell`).
    static func cell(_ text: String) -> String { Markup.markdownCell(text) }
}
