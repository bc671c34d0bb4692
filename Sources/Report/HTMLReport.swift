import Foundation
import LatencyStats
import StrictJSON
package import Records
import TextMarkup

/// A run's report as one self-contained HTML file: inline CSS and SVG, no scripts, no network references, so it
/// opens from disk or a CI artifact store. Well-formed XML as well (XHTML-compatible markup): every element
/// closed, every attribute quoted, every text escaped, only XML's own entities.
///
/// Sections: failures first (each failed, inconclusive or error scenario with its failed steps' messages), latency
/// per step kind (table, CDF and histogram), the per-stage breakdown, the baseline comparison when there is one,
/// the environment, and every scenario.
package enum HTMLReport {
    /// Renders the report.
    ///
    /// - Parameters:
    ///   - results: the run (or merged shards).
    ///   - baseline: the comparison with a baseline run, if any: its table highlights regressions.
    /// - Returns: the HTML document.
    ///   - timelines: the failed scenarios' timelines by their `timeline` capture path (`ReportFiles.timelines`):
    ///     each is drawn as a strip under its failure.
    package static func render(_ results: RunResults, baseline: BaselineComparison? = nil,
                              timelines: [String: TraceTimeline] = [:]) -> String
    {
        let title = "hil run: \(Formatting.totals(results))"
        var html = documentHead(title: title, style: style)
        // The navigation links only the sections this report has: no link without its target.
        let sections: [(id: String, title: String, html: String)] = [
            ("failures", "Failures", failures(results, timelines: timelines)),
            ("latency", "Latency", latency(results)),
            ("transports", "Transports", transports(results)),
            ("stages", "Stages", stages(results)),
            ("baseline", "Baseline", baseline.map(comparison) ?? ""),
            ("time", "Time", time(results)),
            ("environment", "Environment", environment(results)),
            ("scenarios", "Scenarios", scenarioList(results)),
        ].filter { !$0.html.isEmpty }
        html += header(results, title: title, baseline: baseline, nav: sections.map { ($0.id, $0.title) })
        html += sections.map(\.html).joined()
        html += "</body>\n</html>\n"
        return html
    }

    /// A page's document up to its `<body>`: the head every page of Report has, with its title and style sheet.
    static func documentHead(title: String, style: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>\(Markup.escape(title))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>

        """
    }

    // MARK: Sections

    private static func header(_ results: RunResults, title: String, baseline: BaselineComparison?,
                               nav: [(id: String, title: String)]) -> String
    {
        let verdict = results.failed == 0 ? "pass" : "fail"
        var facts: [String] = []
        if let rig = results.rig { facts.append("rig \(rig)") }
        if let radio = results.radioFacts { facts.append("radio \(radio)") }
        if let phone = results.phone { facts.append("phone \(phone)") }
        if let startedAt = results.startedAt { facts.append("started \(startedAt)") }
        if let wall = results.wallMs { facts.append("wall time \(Formatting.seconds(wall))") }
        facts.append("\(results.scenarios.count) scenario\(results.scenarios.count == 1 ? "" : "s")")
        facts.append("\(results.latency.all.count) step latencies, p95 \(Formatting.ms(results.latency.all.p95)) ms")
        if results.sources.count > 1 { facts.append("merged from \(results.sources.count) files") }
        var html = "<header class=\"\(verdict)\">\n<h1>\(Markup.escape(title))</h1>\n"
        html += "<p class=\"facts\">\(Markup.escape(facts.joined(separator: " · ")))</p>\n"
        if !results.missingShards.isEmpty, let count = results.environments.compactMap(\.shard).first?.count {
            let missing = results.missingShards.map(String.init).joined(separator: ", ")
            html += "<p class=\"warning\">Only part of the run: shard\(results.missingShards.count == 1 ? "" : "s") "
                + "\(missing) of \(count) \(results.missingShards.count == 1 ? "is" : "are") not in this report.</p>\n"
        }
        if let baseline {
            let regressed = baseline.regressions.map(\.group.label)
            html += regressed.isEmpty
                ? "<p class=\"ok\">No transport and gesture kind regressed against the baseline.</p>\n"
                : "<p class=\"warning\"><a href=\"#baseline\">Regressed against the baseline</a>: "
                    + "\(Markup.escape(regressed.joined(separator: ", ")))</p>\n"
        }
        if results.latencyRecomputed && results.latency.all.count > 0 {
            html += "<p class=\"note\">Latency percentiles recomputed here from every step&#39;s samples "
                + "(HdrHistogram).</p>\n"
        }
        html += "<nav>" + nav.map { "<a href=\"#\($0.id)\">\($0.title)</a>" }.joined(separator: " ") + "</nav>\n</header>\n"
        return html
    }

    private static func failures(_ results: RunResults, timelines: [String: TraceTimeline]) -> String {
        let failures = results.failures
        var html = "<section id=\"failures\">\n<h2>Failures (\(failures.count))</h2>\n"
        if failures.isEmpty {
            return html + "<p class=\"ok\">Every scenario passed.</p>\n</section>\n"
        }
        for scenario in failures {
            html += "<article class=\"failure\">\n"
            html += "<h3>\(badge(scenario.outcome)) \(Markup.escape(scenario.name))</h3>\n"
            var facts = [scenario.file]
            if !scenario.requirements.isEmpty { facts.append(scenario.requirements.joined(separator: ", ")) }
            facts.append(Formatting.seconds(scenario.durationMs))
            html += "<p class=\"file\">\(Markup.escape(facts.joined(separator: " · ")))</p>\n"
            for step in scenario.problemSteps {
                let radio = step.radio.map { " · radio: \(Markup.escape($0))" } ?? ""
                html += "<h4>steps[\(step.index)] (\(Markup.escape(step.kind))) \(step.outcome.rawValue)\(radio)</h4>\n"
                html += "<pre>\(Markup.escape(step.message.isEmpty ? "(no message)" : step.message))</pre>\n"
            }
            if !scenario.message.isEmpty {
                html += "<h4>scenario</h4>\n<pre>\(Markup.escape(scenario.message))</pre>\n"
            } else if scenario.problemSteps.isEmpty {
                html += "<p>No step failed and the scenario has no message.</p>\n"
            }
            html += evidence(scenario, timelines: timelines)
            html += "</article>\n"
        }
        return html + "</section>\n"
    }

    /// A failure's captures as links (their paths relative to the report's folder: `ReportFiles.writeHTML`) and its
    /// timeline strip.
    private static func evidence(_ scenario: ScenarioResult, timelines: [String: TraceTimeline]) -> String {
        guard !scenario.captures.isEmpty else { return "" }
        let titles = Dictionary(uniqueKeysWithValues: ScenarioResult.Capture.kinds.map { ($0.kind, $0.title) })
        let links = scenario.captures.map { capture in
            "<a href=\"\(Markup.escape(href(capture.path)))\">\(Markup.escape(titles[capture.kind] ?? capture.kind))</a>"
        }
        var html = "<p class=\"captures\">Evidence: \(links.joined(separator: " · "))</p>\n"
        if let path = scenario.captures.first(where: { $0.kind == "timeline" })?.path, let timeline = timelines[path] {
            html += "<figure class=\"timeline\">\n" + timeline.svg()
            html += "<figcaption>Where the time went; \(Markup.escape(path)) has every mark (open it in ui.perfetto.dev)."
            html += timeline.notes.map { " " + Markup.escape($0) }.joined() + "</figcaption>\n</figure>\n"
        }
        return html
    }

    private static func latency(_ results: RunResults) -> String {
        var html = "<section id=\"latency\">\n<h2>Latency by gesture kind</h2>\n"
        guard !results.latency.byKind.isEmpty else {
            return html + "<p>No step latencies in this run.</p>\n</section>\n"
        }
        html += "<p class=\"note\">Each step&#39;s latency: its first command handed to the link → the evdev frame that "
            + "completed its match. HdrHistogram percentiles, ms.</p>\n"
        html += "<table>\n<thead><tr><th>kind</th><th>count</th><th>p50</th><th>p95</th><th>p99</th><th>max</th></tr>"
            + "</thead>\n<tbody>\n"
        for kind in results.latency.byKind {
            html += "<tr><td>\(Markup.escape(kind.kind))</td>\(summaryCells(kind.summary))</tr>\n"
        }
        html += "<tr class=\"total\"><td>all</td>\(summaryCells(results.latency.all))</tr>\n</tbody>\n</table>\n"
        // One latency axis for every kind's charts, so kinds compare by eye.
        let scale = LogScale(samples: results.latency.byKind.flatMap { results.samples(ofKind: $0.kind) })
        if results.latency.byKind.count > 1 {
            html += "<p class=\"note\">Every kind&#39;s charts share one latency axis, "
                + "\(LogScale.label(scale.low))–\(LogScale.label(scale.high)) ms.</p>\n"
        }
        for kind in results.latency.byKind {
            html += "<h3>\(Markup.escape(kind.kind))</h3>\n"
            let samples = results.samples(ofKind: kind.kind)
            if samples.isEmpty {
                html += "<p>No step of this kind carries its latency sample.</p>\n"
                continue
            }
            html += "<div class=\"charts\">\n"
            html += LatencyChart.cdf(kind: kind.kind, samples: samples, summary: kind.summary, scale: scale)
            html += LatencyChart.histogram(kind: kind.kind, samples: samples, scale: scale)
            html += "</div>\n"
        }
        return html + "</section>\n"
    }

    /// Latency per transport, and with several transports each kind's p50 and p95 side by side.
    private static func transports(_ results: RunResults) -> String {
        let entries = TransportLatency.of(results.scenarios)
        guard !entries.isEmpty else { return "" }
        var html = "<section id=\"transports\">\n<h2>Latency by transport</h2>\n"
        html += "<p>Step latency includes the gesture's own span; the link stage (handed to the link → the computer received it) is what the product documents' claims are about. <code>hil bench</code> measures the link alone.</p>\n"
        html += "<table>\n<thead><tr><th>transport</th><th>count</th><th>p50</th><th>p95</th><th>p99</th><th>max</th>"
            + "<th>link p50</th><th>link p95</th><th>radio</th><th>the product&#39;s claim</th></tr></thead>\n<tbody>\n"
        // The emulated radio's model carried ble and hid; tcp and udp went over veth.
        let radioFacts = results.radioFacts ?? "—"
        for entry in entries {
            let radio = ["ble", "hid"].contains(entry.transport) ? radioFacts : "—"
            html += "<tr><td>\(Markup.escape(entry.transport))</td>\(summaryCells(entry.summary))"
                + "<td class=\"n\">\(Formatting.ms(entry.link?.p50))</td><td class=\"n\">\(Formatting.ms(entry.link?.p95))</td>"
                + "<td>\(Markup.escape(radio))</td>"
                + "<td>\(Markup.escape(TransportLatency.claim(entry.transport) ?? "—"))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        guard entries.count > 1 else { return html + "</section>\n" }
        let kinds = Set(entries.flatMap { $0.byKind.map(\.kind) }).sorted()
        html += "<table>\n<thead><tr><th>kind</th>"
            + entries.map { "<th>\(Markup.escape($0.transport)) p50</th><th>\(Markup.escape($0.transport)) p95</th>" }.joined()
            + "</tr></thead>\n<tbody>\n"
        for kind in kinds {
            html += "<tr><td>\(Markup.escape(kind))</td>"
            for entry in entries {
                let summary = entry.byKind.first { $0.kind == kind }?.summary
                html += "<td class=\"n\">\(Formatting.ms(summary?.p50))</td><td class=\"n\">\(Formatting.ms(summary?.p95))</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }

    private static func stages(_ results: RunResults) -> String {
        var html = "<section id=\"stages\">\n<h2>Per-stage breakdown</h2>\n"
        guard let chart = LatencyChart.stages(results.latency.byKind) else {
            return html + "<p>No step carries its stage times (older results, or receipts that could not be matched).</p>\n"
                + "</section>\n"
        }
        html += "<p class=\"note\">gesture: the step&#39;s first command → the completing command handed to the link; "
            + "link: → the peripheral received it; peripheral: → its uinput write returned; kernel: → the evdev "
            + "timestamp. Bars: the median of each stage, stacked.</p>\n"
        html += chart
        html += "<table>\n<thead><tr><th>kind</th><th>steps</th>"
        for stage in LatencyStage.allCases { html += "<th>\(stage.rawValue) p50</th><th>\(stage.rawValue) p95</th>" }
        html += "</tr></thead>\n<tbody>\n"
        for kind in results.latency.byKind where !kind.stages.isEmpty {
            let count = kind.stages.values.map(\.count).max() ?? 0
            html += "<tr><td>\(Markup.escape(kind.kind))</td><td class=\"n\">\(count)</td>"
            for stage in LatencyStage.allCases {
                let summary = kind.stages[stage]
                html += "<td class=\"n\">\(Formatting.ms(summary?.p50))</td>"
                    + "<td class=\"n\">\(Formatting.ms(summary?.p95))</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }

    private static func time(_ results: RunResults) -> String {
        let time = PhaseBreakdown(results.scenarios)
        guard time.scenarios > 0 else { return "" }
        var html = "<section id=\"time\">\n<h2>Where the time went</h2>\n<p>\(Markup.escape(time.runLine(results)))</p>\n"
        html += "<table>\n<thead><tr><th>phase (ends)</th><th>scenarios</th><th>median ms</th><th>total s</th></tr></thead>\n<tbody>\n"
        for phase in time.phases {
            html += "<tr><td>\(Markup.escape(phase.name))</td><td class=\"n\">\(phase.count)</td>"
                + "<td class=\"n\">\(String(format: "%.0f", phase.medianMs))</td><td class=\"n\">\(String(format: "%.1f", phase.totalMs / 1000))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }

    private static func comparison(_ comparison: BaselineComparison) -> String {
        var html = "<section id=\"baseline\">\n<h2>Compared with baseline</h2>\n"
        html += "<p class=\"note\">\(Markup.escape(comparison.ruleText)) m = \(comparison.comparisons) here.</p>\n"
        html += "<table>\n<thead><tr><th>transport and kind</th><th>verdict</th><th>baseline p50</th><th>current p50</th>"
            + "<th>shift</th><th>p</th><th>baseline p95</th><th>current p95</th><th>baseline count</th><th>current count</th>"
            + "</tr></thead>\n<tbody>\n"
        for entry in comparison.entries {
            let rowClass = entry.verdict.rawValue.replacingOccurrences(of: " ", with: "-")
            html += "<tr class=\"\(rowClass)\"><td>\(Markup.escape(entry.group.label))</td><td>\(entry.verdict.rawValue)</td>"
                + "<td class=\"n\">\(Formatting.ms(entry.baseline?.p50))</td>"
                + "<td class=\"n\">\(Formatting.ms(entry.current?.p50))</td>"
                + "<td class=\"n\">\(Markup.escape(Formatting.shift(entry.shift)))</td>"
                + "<td class=\"n\">\(Markup.escape(Formatting.pValue(entry.shift)))</td>"
                + "<td class=\"n\">\(Formatting.ms(entry.baseline?.p95))</td>"
                + "<td class=\"n\">\(Formatting.ms(entry.current?.p95))</td>"
                + "<td class=\"n\">\(entry.baseline.map { String($0.count) } ?? "-")</td>"
                + "<td class=\"n\">\(entry.current.map { String($0.count) } ?? "-")</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }

    private static func environment(_ results: RunResults) -> String {
        var html = "<section id=\"environment\">\n<h2>Environment</h2>\n"
        guard !results.environments.isEmpty else {
            return html + "<p>The results do not say where the run ran (written by an older hil run).</p>\n</section>\n"
        }
        let extraKeys = results.environments.flatMap(\.additional.keys).reduce(into: [String]()) { keys, key in
            if !keys.contains(key) { keys.append(key) }
        }
        html += "<table>\n<thead><tr><th>shard</th><th>host</th><th>rig</th><th>kernel</th><th>BlueZ</th>"
            + "<th>adapters (peripheral / central)</th><th>latency scale</th><th>write path</th><th>rig up</th><th>lanes</th>"
        for key in extraKeys { html += "<th>\(Markup.escape(key))</th>" }
        html += "</tr></thead>\n<tbody>\n"
        for environment in results.environments {
            let adapters = "\(environment.peripheralAdapter ?? "?") / \(environment.centralAdapter ?? "?")"
            let cells = [
                environment.shard?.description ?? "-", environment.host ?? "-", environment.rig ?? "-",
                environment.kernel ?? "-", environment.bluez ?? "-", adapters,
                environment.latencyScale.map { "×" + Formatting.plain($0) } ?? "-",
                environment.writePath ?? "per scenario", Formatting.seconds(environment.rigUpMs), environment.lanes.map(String.init) ?? "-",
            ] + extraKeys.map { key in environment.additional[key].map(text) ?? "-" }
            html += "<tr>" + cells.map { "<td>\(Markup.escape($0))</td>" }.joined() + "</tr>\n"
        }
        html += "</tbody>\n</table>\n"
        if !results.sources.isEmpty {
            // Relative to this report's folder (ReportFiles.writeHTML): what the reader has beside the report.
            html += "<p class=\"file\">From \(Markup.escape(results.sources.joined(separator: ", ")))</p>\n"
        }
        return html + "</section>\n"
    }

    private static func scenarioList(_ results: RunResults) -> String {
        var html = "<section id=\"scenarios\">\n<h2>Scenarios (\(results.scenarios.count))</h2>\n"
        html += "<table>\n<thead><tr><th>#</th><th>outcome</th><th>scenario</th><th>requirements</th><th>duration</th>"
            + "<th>checked steps</th><th>p95</th></tr></thead>\n<tbody>\n"
        for (number, scenario) in results.scenarios.enumerated() {
            // A scenario not run on its transport has no duration, steps or latency: a dash, not 0.0 s and 0.
            let ran = scenario.outcome != .notApplicable
            let checked = ran ? String(scenario.steps.filter { $0.outcome != .unchecked }.count) : "-"
            html += "<tr class=\"\(scenario.outcome.rawValue)\"><td class=\"n\">\(number + 1)</td>"
                + "<td>\(badge(scenario.outcome))</td>"
                + "<td>\(Markup.escape(scenario.name))<br/><span class=\"file\">\(Markup.escape(scenario.file))</span>"
                + (ScenarioGrid.radio(of: scenario.steps).map { "<br/><span class=\"file\">radio: \(Markup.escape($0))</span>" } ?? "")
                + "</td>"
                + "<td>\(Markup.escape(scenario.requirements.joined(separator: ", ")))</td>"
                + "<td class=\"n\">\(ran ? Formatting.seconds(scenario.durationMs) : "-")</td><td class=\"n\">\(checked)</td>"
                + "<td class=\"n\">\(ran ? Formatting.ms(scenario.p95Ms) : "-")</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }

    // MARK: Pieces

    /// An outcome's badge, in words (`not applicable`, not the JSON value `notApplicable`).
    private static func badge(_ outcome: ScenarioResult.Outcome) -> String {
        let words = outcome == .notApplicable ? "not applicable" : outcome.rawValue
        return "<span class=\"badge \(outcome.rawValue)\">\(words)</span>"
    }

    /// A relative file path as a link target: percent-encoded, so a space, `#` or `%` in a folder's name stays
    /// part of the path, and `./` before a first segment with a colon, which would read as a URL scheme.
    static func href(_ path: String) -> String {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        return (encoded.split(separator: "/").first?.contains(":") ?? false) ? "./" + encoded : encoded
    }

    private static func summaryCells(_ summary: LatencySummary) -> String {
        "<td class=\"n\">\(summary.count)</td>"
            + [summary.p50, summary.p95, summary.p99, summary.max].map { "<td class=\"n\">\(Formatting.ms($0))</td>" }
            .joined()
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number): Formatting.plain(number)
        case .bool(let flag): flag ? "true" : "false"
        case .null: "-"
        case .array, .object: JSONWriter(pretty: false).string(value)
        }
    }
}
