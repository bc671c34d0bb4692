import Foundation
import System
package import Records

/// The report files of a run, side by side with its results.json: `report.html` and `summary.md`.
package enum ReportFiles {
    package static let htmlName = "report.html"
    package static let markdownName = "summary.md"

    /// Writes `report.html` (HTMLReport) and `summary.md` (MarkdownSummary) into a folder: what `hil run` calls
    /// after writing results.json there.
    ///
    /// - Parameters:
    ///   - results: the run's results (`RunResults.load(contentsOf:)` of its results.json, or built in memory).
    ///   - baseline: a baseline run to compare each gesture kind's p95 with, if any.
    ///   - directory: the folder; it must exist.
    /// - Returns: the paths written, HTML first.
    /// - Throws: `ReportError` (`.cannotWrite`) naming the file that could not be written.
    @discardableResult
    package static func write(results: RunResults, baseline: RunResults? = nil, to directory: String)
        throws(ReportError) -> [String]
    {
        let comparison = baseline.map { BaselineComparison(current: results, baseline: $0) }
        let folder = URL(fileURLWithPath: directory)
        let html = folder.appendingPathComponent(htmlName).path
        let markdown = folder.appendingPathComponent(markdownName).path
        try writeHTML(results, baseline: comparison, to: html)
        try write(MarkdownSummary.render(results, baseline: comparison), to: markdown)
        return [html, markdown]
    }

    /// Writes a whole run into a folder: `results.json`, `junit.xml`, `report.html` and `summary.md`, every capture
    /// path in them relative to that folder (what `hil lab run` writes for the merged shards it fetched).
    ///
    /// - Parameters:
    ///   - results: the run; capture paths absolute, or relative to `directory`.
    ///   - directory: the folder; it must exist.
    ///   - everyEnvironmentKey: write every environment key into results.json (`RunResults.jsonText(everyEnvironmentKey:)`).
    /// - Returns: the paths written.
    /// - Throws: `ReportError` (`.cannotWrite`) naming the file that could not be written.
    @discardableResult
    package static func writeRun(_ results: RunResults, to directory: String, everyEnvironmentKey: Bool = false)
        throws(ReportError) -> [String]
    {
        let local = results.capturesRelative(to: directory)
        let folder = URL(fileURLWithPath: directory)
        let json = folder.appendingPathComponent("results.json").path
        let junit = folder.appendingPathComponent("junit.xml").path
        try write(local.jsonText(everyEnvironmentKey: everyEnvironmentKey), to: json)
        try write(local.junitXML, to: junit)
        return [json, junit] + (try write(results: local, to: directory))
    }

    /// Writes the HTML report to `file`, each capture linked relative to the file's folder (so the links hold
    /// when the folder is moved or uploaded) and each failed scenario's timeline drawn.
    ///
    /// - Parameters:
    ///   - results: the run; capture paths absolute, or relative to the folder of `file`.
    ///   - baseline: the comparison with a baseline run, if any.
    ///   - file: where the report goes; its folder must exist.
    /// - Throws: `ReportError` (`.cannotWrite`) naming the file.
    package static func writeHTML(_ results: RunResults, baseline: BaselineComparison? = nil, to file: String)
        throws(ReportError)
    {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        var local = results.capturesRelative(to: folder)
        local.sources = local.sources.map { shown($0, from: folder) }
        try write(HTMLReport.render(local, baseline: baseline, timelines: timelines(of: local, in: folder)), to: file)
    }

    /// A results file as the report names it: relative to the report's folder when it is in it (`results.json` beside
    /// report.html; never where it was written inside a vm guest, `/hil/share/results/…`, which the reader's host
    /// does not have), else as it was given.
    package static func shown(_ source: String, from folder: String) -> String {
        let path = URL(fileURLWithPath: source).standardizedFileURL.path
        let base = URL(fileURLWithPath: folder).standardizedFileURL.path
        guard path.hasPrefix(base + "/") else { return source }
        return String(path.dropFirst(base.count + 1))
    }

    /// Loads a results.json (and a baseline) and writes `report.html` and `summary.md` next to it.
    ///
    /// - Parameters:
    ///   - resultsFile: the results.json.
    ///   - baselineFile: a baseline results.json, if any.
    /// - Returns: the paths written, HTML first.
    /// - Throws: `ReportError` naming the file (and JSON path) that could not be read or written.
    @discardableResult
    package static func write(nextTo resultsFile: String, baselineFile: String? = nil) throws(ReportError) -> [String] {
        let results = try RunResults.load(contentsOf: resultsFile)
        let baseline = try baselineFile.map { path throws(ReportError) in try RunResults.load(contentsOf: path) }
        let folder = URL(fileURLWithPath: resultsFile).deletingLastPathComponent().path
        return try write(results: results, baseline: baseline, to: folder)
    }

    /// Writes a history's page and its Markdown summary, each run linked to its report.html (relative to the page's
    /// folder, as every report link is) where that file exists.
    ///
    /// - Parameters:
    ///   - history: the runs, analysed.
    ///   - html: where the page goes, if anywhere; its folder must exist.
    ///   - markdown: where the summary goes, if anywhere.
    /// - Returns: the Markdown summary.
    /// - Throws: `ReportError` (`.cannotWrite`) naming the file.
    @discardableResult
    package static func writeHistory(_ history: HistoryAnalysis, html: String?, markdown: String?) throws(ReportError)
        -> String
    {
        let summary = HistoryMarkdown.render(history)
        if let html {
            let folder = URL(fileURLWithPath: html).deletingLastPathComponent().path
            var reports: [Int: String] = [:]
            for (index, entry) in history.runs.enumerated() {
                let report = URL(fileURLWithPath: entry.run.folder).appendingPathComponent(htmlName).path
                if FileManager.default.fileExists(atPath: report) {
                    reports[index] = RunResults.relativePath(report, from: folder)
                }
            }
            try write(HistoryPage.render(history, reports: reports), to: html)
        }
        if let markdown { try write(summary, to: markdown) }
        return summary
    }

    /// The timelines of the failed scenarios, by capture path (absolute, or relative to `directory`); a timeline
    /// that cannot be read is left out (its link stays in the report).
    package static func timelines(of results: RunResults, in directory: String) -> [String: TraceTimeline] {
        var timelines: [String: TraceTimeline] = [:]
        for scenario in results.failures {
            guard let path = scenario.captures.first(where: { $0.kind == "timeline" })?.path else { continue }
            let file = path.hasPrefix("/") ? path : URL(fileURLWithPath: directory).appendingPathComponent(path).path
            guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                  let timeline = try? TraceTimeline(json: text, file: file) else { continue }
            timelines[path] = timeline
        }
        return timelines
    }

    /// Writes text to a file atomically (a reader never sees half a report).
    ///
    /// - Throws: `ReportError` (`.cannotWrite`) with the path and the system's reason.
    package static func write(_ text: String, to path: String) throws(ReportError) {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw ReportError(
                .cannotWrite, file: path, problems: ["cannot write it: \(FileAccess.writeProblem(path).reason)"],
                hint: "give a file in a folder you can write to")
        }
    }
}
