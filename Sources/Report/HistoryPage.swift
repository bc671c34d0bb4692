import Foundation
import LatencyStats
import Records
import TextMarkup

/// Runs over time as one self-contained HTML page (inline CSS and SVG, no scripts, no network references, well-formed
/// XML as the run report is): the newest run's verdict, the runs with their commits and changed conditions, each
/// transport and gesture kind's p50 and p95 with 95 % intervals as trend charts, each scenario's outcome run by run,
/// and the conditions of every run (docs/report.md, "The history page").
package enum HistoryPage {
    /// Renders the page.
    ///
    /// - Parameters:
    ///   - history: the runs, analysed.
    ///   - reports: each run's report.html as a link from the page's folder, by run index, where it exists.
    /// - Returns: the HTML document.
    package static func render(_ history: HistoryAnalysis, reports: [Int: String] = [:]) -> String {
        let title = "hil history: \(history.runs.count) run\(history.runs.count == 1 ? "" : "s")"
        let sections: [(id: String, title: String, html: String)] = [
            ("runs", "Runs", runs(history, reports: reports)),
            ("latency", "Latency", latency(history)),
            ("scenarios", "Scenarios", grid(history)),
            ("conditions", "Conditions", conditions(history)),
            ("skipped", "Skipped", skipped(history)),
        ].filter { !$0.html.isEmpty }
        var html = HTMLReport.documentHead(title: title, style: HTMLReport.style + "\n" + style)
        html += header(history, title: title, nav: sections.map { ($0.id, $0.title) })
        html += sections.map(\.html).joined()
        return html + "</body>\n</html>\n"
    }

    /// The newest run's verdict in one sentence: its totals, then what regressed or why it was not compared.
    package static func verdictLine(_ history: HistoryAnalysis) -> String {
        guard let newest = history.newest else { return "No run." }
        var line = "Newest run \(newest.run.name): \(Formatting.totals(newest.run.results))"
        guard let comparison = newest.comparison else {
            return line + "; not compared: no earlier run under the same conditions."
        }
        let regressions = comparison.regressions
        let against = "its \(newest.reference.count) earlier run\(newest.reference.count == 1 ? "" : "s")"
        if regressions.isEmpty {
            line += "; nothing regressed against \(against) (\(comparison.comparisons) groups judged)."
        } else {
            line += "; regressed against \(against): "
                + regressions.map { "\($0.group.label) \(Formatting.shift($0.shift)), p \(Formatting.pValue($0.shift))" }
                .joined(separator: "; ") + "."
        }
        return line
    }

    /// Each run's label under the trend charts' ticks and in the grid's tooltips: `11-30` (UTC) when no two runs
    /// share a day, else `11-30 02:30`; a run without a start time, its folder's name.
    static func labels(_ runs: [RunHistory.Run]) -> [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MM-dd"
        let days = runs.compactMap(\.date).map(formatter.string(from:))
        if Set(days).count < days.count { formatter.dateFormat = "MM-dd HH:mm" }
        return runs.map { run in run.date.map(formatter.string(from:)) ?? run.name }
    }

    // MARK: Sections

    private static func header(_ history: HistoryAnalysis, title: String, nav: [(id: String, title: String)]) -> String {
        let newest = history.newest
        let bad = (newest?.run.results.failed ?? 0) > 0 || !(newest?.regressions.isEmpty ?? true)
        var facts: [String] = []
        if let first = history.runs.first, let last = history.runs.last {
            facts.append("from \(first.run.results.startedAt ?? first.run.name) to \(last.run.results.startedAt ?? last.run.name)")
        }
        facts.append("\(history.series.count) transport and gesture kind group\(history.series.count == 1 ? "" : "s")")
        facts.append("\(history.grid.rows.count) scenario\(history.grid.rows.count == 1 ? "" : "s")")
        var html = "<header class=\"\(bad ? "fail" : "pass")\">\n<h1>\(Markup.escape(title))</h1>\n"
        html += "<p class=\"facts\">\(Markup.escape(facts.joined(separator: " · ")))</p>\n"
        html += "<p class=\"\(bad ? "warning" : "ok")\">\(Markup.escape(verdictLine(history)))</p>\n"
        html += "<nav>" + nav.map { "<a href=\"#\($0.id)\">\($0.title)</a>" }.joined(separator: " ") + "</nav>\n</header>\n"
        return html
    }

    private static func runs(_ history: HistoryAnalysis, reports: [Int: String]) -> String {
        var html = "<section id=\"runs\">\n<h2>Runs</h2>\n"
        html += "<p class=\"note\">Oldest first. Each run is compared with up to \(HistoryAnalysis.referenceRuns) earlier "
            + "runs under the same conditions (kernel, BlueZ, rig, radio, build, host, lanes), their samples pooled.</p>\n"
        let mutants = history.runs.contains { $0.run.mutations != nil }
        html += "<table>\n<thead><tr><th>#</th><th>run</th><th>started</th><th>commit</th><th>scenarios</th>"
            + (mutants ? "<th>mutation score</th>" : "")
            + "<th>conditions changed</th><th>compared with</th><th>regressed</th></tr></thead>\n<tbody>\n"
        for (index, entry) in history.runs.enumerated() {
            let results = entry.run.results
            let name = reports[index].map { "<a href=\"\(Markup.escape(HTMLReport.href($0)))\">\(Markup.escape(entry.run.name))</a>" }
                ?? Markup.escape(entry.run.name)
            let compared = entry.reference.isEmpty ? "—" : "\(entry.reference.count) run\(entry.reference.count == 1 ? "" : "s")"
            let regressed = entry.comparison == nil ? "—" : entry.regressions.isEmpty ? "nothing"
                : entry.regressions.map { "\($0.group.label) \(Formatting.shift($0.shift))" }.joined(separator: "; ")
            let rowClass = results.failed > 0 || !entry.regressions.isEmpty ? " class=\"bad\"" : ""
            html += "<tr\(rowClass)><td class=\"n\">\(index + 1)</td><td class=\"nowrap\">\(name)</td>"
                + "<td class=\"nowrap\">\(Markup.escape(results.startedAt ?? "-"))</td>"
                + "<td class=\"file nowrap\">\(Markup.escape(results.commit.map(shortCommit) ?? "-"))</td>"
                + "<td class=\"nowrap\">\(Markup.escape(Formatting.totals(results)))</td>"
                + (mutants ? "<td class=\"nowrap\">\(Markup.escape(entry.run.mutationScore ?? "—"))</td>" : "")
                + "<td>\(Markup.escape(entry.changes.isEmpty ? "—" : entry.changes.map(\.description).joined(separator: "; ")))</td>"
                + "<td>\(compared)</td><td>\(Markup.escape(regressed))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }

    private static func latency(_ history: HistoryAnalysis) -> String {
        var html = "<section id=\"latency\">\n<h2>Latency by transport and gesture kind</h2>\n"
        guard !history.series.isEmpty else { return html + "<p>No step latencies in these runs.</p>\n</section>\n" }
        html += "<p class=\"note\">p50 and p95 of each run&#39;s step latencies (HdrHistogram) with 95 % intervals: a "
            + "bootstrap over the run&#39;s steps (\(PercentileInterval.resamples) resamples, fixed seed); no interval "
            + "where fewer than \(Int(PercentileInterval.minimumBeyond)) steps lie beyond the percentile. "
            + "\(Markup.escape(history.rule.text))</p>\n"
        html += newestTable(history)
        let labels = labels(history.runs.map(\.run))
        let runs = history.runs.indices.map { index in
            HistoryChart.Run(label: labels[index], name: history.runs[index].run.name,
                             changes: history.runs[index].changes.map(\.description))
        }
        for series in history.series {
            html += "<h3>\(Markup.escape(series.group.label))</h3>\n" + HistoryChart.trend(series, runs: runs)
        }
        return html + "</section>\n"
    }

    /// The newest run's figures per group, with its verdict.
    private static func newestTable(_ history: HistoryAnalysis) -> String {
        guard let last = history.runs.indices.last else { return "" }
        var html = "<table>\n<thead><tr><th>newest run</th><th>steps</th><th>p50</th><th>p50 95 % interval</th><th>p95</th>"
            + "<th>p95 95 % interval</th><th>p50 shift</th><th>p</th><th>verdict</th></tr></thead>\n<tbody>\n"
        for series in history.series {
            guard let point = series.points[last] else { continue }
            let entry = history.runs[last].comparison?.entries.first { $0.group == series.group }
            let verdict = entry?.verdict.rawValue ?? "not compared"
            html += "<tr class=\"\(verdict.replacingOccurrences(of: " ", with: "-"))\"><td>\(Markup.escape(series.group.label))</td>"
                + "<td class=\"n\">\(point.count)</td><td class=\"n\">\(Formatting.ms(point.p50.value))</td>"
                + "<td class=\"n\">\(Formatting.interval(point.p50))</td><td class=\"n\">\(Formatting.ms(point.p95.value))</td>"
                + "<td class=\"n\">\(Formatting.interval(point.p95))</td>"
                + "<td class=\"n\">\(Markup.escape(Formatting.shift(entry?.shift)))</td>"
                + "<td class=\"n\">\(Markup.escape(Formatting.pValue(entry?.shift)))</td><td>\(verdict)</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    private static func grid(_ history: HistoryAnalysis) -> String {
        guard !history.grid.rows.isEmpty else { return "" }
        var html = "<section id=\"scenarios\">\n<h2>Scenarios run by run</h2>\n"
        html += "<p class=\"note\">Columns are the runs, numbered as in the runs table. ✓ passed · ✗ failed · ~ flaky "
            + "(its repeats disagreed) · ! error · ? inconclusive · n/a not applicable · blank: not in that run. "
            + "Scenarios that failed in some run come first.</p>\n"
        let labels = labels(history.runs.map(\.run))
        html += "<div class=\"wide\">\n<table class=\"grid\">\n<thead><tr><th>scenario</th><th>transport</th><th>failed in</th>"
        html += history.runs.indices.map { index in
            "<th class=\"run\" title=\"\(Markup.escape(history.runs[index].run.name))\">\(index + 1)</th>"
        }.joined() + "</tr></thead>\n<tbody>\n"
        for row in history.grid.rows {
            let radio = row.radio.map { "<br/><span class=\"file\">radio: \(Markup.escape($0))</span>" } ?? ""
            html += "<tr><td>\(Markup.escape(row.name))<br/><span class=\"file\">\(Markup.escape(row.file))</span>\(radio)</td>"
                + "<td>\(Markup.escape(row.transport ?? "-"))</td>"
                + "<td class=\"n\">\(row.failures) of \(row.cells.filter { $0 != .absent }.count)\(row.unsteady ? " (unsteady)" : "")</td>"
            for (index, cell) in row.cells.enumerated() {
                let tip = "run \(index + 1), \(labels[index]): \(cell.rawValue)"
                html += "<td class=\"cell \(cell == .notApplicable ? "notApplicable" : cell.rawValue)\" title=\"\(Markup.escape(tip))\">"
                    + "\(symbol(cell))</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table>\n</div>\n</section>\n"
    }

    private static func conditions(_ history: HistoryAnalysis) -> String {
        var html = "<section id=\"conditions\">\n<h2>Conditions</h2>\n"
        html += "<p class=\"note\">What each run recorded; a changed value is marked, and a run is compared only with "
            + "runs under the same conditions. An older results.json that does not record a condition shows a dash "
            + "(not counted as a change).</p>\n"
        html += "<table>\n<thead><tr><th>run</th>" + RunConditions.names.map { "<th>\(Markup.escape($0))</th>" }.joined()
            + "</tr></thead>\n<tbody>\n"
        for entry in history.runs {
            let changed = Set(entry.changes.map(\.name))
            let values = entry.run.results.conditions.values
            html += "<tr><td>\(Markup.escape(entry.run.name))</td>" + RunConditions.names.map { name in
                "<td\(changed.contains(name) ? " class=\"changed\"" : "")>\(Markup.escape(values[name] ?? "-"))</td>"
            }.joined() + "</tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }

    private static func skipped(_ history: HistoryAnalysis) -> String {
        guard !history.skipped.isEmpty else { return "" }
        var html = "<section id=\"skipped\">\n<h2>Skipped folders (\(history.skipped.count))</h2>\n<ul>\n"
        for entry in history.skipped {
            html += "<li><span class=\"file\">\(Markup.escape(entry.folder))</span>: \(Markup.escape(entry.reason))</li>\n"
        }
        return html + "</ul>\n</section>\n"
    }

    // MARK: Pieces

    private static func symbol(_ cell: ScenarioGrid.Cell) -> String {
        switch cell {
        case .passed: "✓"
        case .failed: "✗"
        case .flaky: "~"
        case .error: "!"
        case .inconclusive: "?"
        case .notApplicable: "n/a"
        case .absent: ""
        }
    }

    /// A commit as people quote it: its first 12 characters (and `+dirty`).
    static func shortCommit(_ commit: String) -> String {
        commit.split(separator: ",").map { part in
            let text = part.trimmingCharacters(in: .whitespaces)
            let dirty = text.hasSuffix("+dirty")
            let hash = dirty ? String(text.dropLast(6)) : text
            return String(hash.prefix(12)) + (dirty ? "+dirty" : "")
        }.joined(separator: ", ")
    }
}
