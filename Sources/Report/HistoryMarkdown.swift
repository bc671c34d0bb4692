import TextMarkup

/// A history's Markdown summary for a CI job page or a morning's mail: the newest run's verdict, the latest runs,
/// the newest run's latency with intervals and verdicts, and the scenarios that did not always pass.
package enum HistoryMarkdown {
    /// How many of the newest runs the summary lists (the page has them all).
    package static let recentRuns = 10

    /// Renders the summary: GitHub-flavoured Markdown ending with a newline.
    package static func render(_ history: HistoryAnalysis) -> String {
        let bad = (history.newest?.run.results.failed ?? 0) > 0 || !(history.newest?.regressions.isEmpty ?? true)
        var lines = ["\(bad ? "❌" : "✅") **hil history: \(history.runs.count) run\(history.runs.count == 1 ? "" : "s")** "
            + HistoryPage.verdictLine(history), ""]
        let recent = Array(history.runs.indices.suffix(recentRuns))
        let mutants = recent.contains { history.runs[$0].run.mutations != nil }
        lines += ["### Runs", "", "| # | run | commit | scenarios |" + (mutants ? " mutation score |" : "") + " conditions changed | regressed |",
                  "|---:|---|---|---|" + (mutants ? "---|" : "") + "---|---|"]
        for index in recent {
            let entry = history.runs[index]
            let regressed = entry.comparison == nil ? "not compared" : entry.regressions.isEmpty ? "nothing"
                : entry.regressions.map { "\($0.group.label) \(Formatting.shift($0.shift))" }.joined(separator: "; ")
            lines.append("| \(index + 1) | \(cell(entry.run.name)) | \(cell(entry.run.results.commit.map(HistoryPage.shortCommit) ?? "-")) "
                + "| \(Formatting.totals(entry.run.results)) "
                + (mutants ? "| \(cell(entry.run.mutationScore ?? "—")) " : "")
                + "| \(cell(entry.changes.isEmpty ? "—" : entry.changes.map(\.description).joined(separator: "; "))) "
                + "| \(cell(regressed)) |")
        }
        lines.append("")
        if let last = history.runs.indices.last, history.series.contains(where: { $0.points[last] != nil }) {
            lines += ["### Newest run's latency (ms; 95 % intervals)", "",
                      "| transport and kind | steps | p50 | p50 interval | p95 | p95 interval | p50 shift | p | verdict |",
                      "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
            for series in history.series {
                guard let point = series.points[last] else { continue }
                let entry = history.runs[last].comparison?.entries.first { $0.group == series.group }
                lines.append("| \(cell(series.group.label)) | \(point.count) | \(Formatting.ms(point.p50.value)) | \(Formatting.interval(point.p50)) "
                    + "| \(Formatting.ms(point.p95.value)) | \(Formatting.interval(point.p95)) | \(Formatting.shift(entry?.shift)) "
                    + "| \(Formatting.pValue(entry?.shift)) | \(entry?.verdict.rawValue ?? "not compared") |")
            }
            lines += ["", history.rule.text, ""]
        }
        let unsteady = history.grid.rows.filter { $0.failures > 0 }
        if !unsteady.isEmpty {
            lines += ["### Scenarios that did not always pass", "",
                      "| scenario | transport | failed in | " + recent.map { "\($0 + 1)" }.joined(separator: " | ") + " |",
                      "|---|---|---:|" + String(repeating: ":---:|", count: recent.count)]
            for row in unsteady {
                lines.append("| \(cell(row.name)) | \(cell(row.transport ?? "-")) | \(row.failures) of \(row.cells.filter { $0 != .absent }.count) | "
                    + recent.map { symbol(row.cells[$0]) }.joined(separator: " | ") + " |")
            }
            lines.append("")
        }
        if !history.skipped.isEmpty {
            lines.append("Skipped: " + history.skipped.map { "\(cell($0.folder)) (\(cell($0.reason)))" }.joined(separator: "; "))
        }
        while lines.last == "" { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func symbol(_ cell: ScenarioGrid.Cell) -> String {
        switch cell {
        case .passed: "✅"
        case .failed, .error: "❌"
        case .flaky, .inconclusive: "⚠️"
        case .notApplicable: "n/a"
        case .absent: ""
        }
    }

    private static func cell(_ text: String) -> String { Markup.markdownCell(text) }
}
