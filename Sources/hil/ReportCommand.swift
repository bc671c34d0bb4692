import ArgumentParser
import Foundation
import Records
import Report
import System

/// Reports from the results.json files `hil run` writes: Markdown for a CI job page, HTML, a baseline comparison.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Summarise hil run results: Markdown on standard output, an HTML report, a comparison with a baseline.",
        discussion: """
            Reads results.json files (docs/results-format.md). Several files are the shards of one run (hil run \
            --shard i/n on several boxes): they are merged, scenarios in shard order, and every percentile is \
            recomputed from the steps' samples, never averaged.

            Prints a short Markdown summary (totals, failures, latency per gesture kind, regressions) on standard \
            output, so it can go straight to a CI job page: hil report results.json >> "$GITHUB_STEP_SUMMARY". \
            Messages go to standard error.

            With --baseline, each transport and gesture kind's step latencies are compared with the baseline's: \
            regressed when a Mann–Whitney U test gives p < 0.01 / m (Bonferroni over the m groups compared) and the \
            p50 moved by at least 1 ms and 10 % (docs/report.md, "The regression rule").

            With --history, the arguments are run folders (each holding a results.json) or folders of them (as \
            Rigs/hardware/nightly.sh keeps): --html writes one page across the runs in time order (p50 and p95 with \
            95 % intervals per transport and gesture kind, each scenario's outcome run by run, each run's commit, \
            where the conditions changed), and each run is compared with the earlier runs under the same conditions \
            by the same rule.

            Exit status 64 (invalid input) when a file cannot be read or is not a results document (each problem \
            is printed as file: json.path: message), when the files are not the shards of one run, or when an \
            output cannot be written; 1 with --fail-on-regression when a group regressed (with --history: in the \
            newest run); 0 otherwise, whatever the scenarios' verdicts.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "results.json files of one run; several are its shards, merged. With --history: run folders, or folders of them.",
            valueName: "results.json"))
    var results: [String]

    @Flag(help: "Report on many runs over time: the arguments are run folders, or folders holding run folders.")
    var history = false

    static let keepRange = OptionRange<Int>("--keep", atLeast: 1)

    @Option(parsing: .unconditional, help: keepRange.help(
        "With --history: remove the oldest runs found in the folders of runs, keeping this many.",
        discussion: "Runs named directly and folders that are not readable runs are never removed.", valueName: "n"))
    var keep: Int?

    @Option(
        help: ArgumentHelp("Write the self-contained HTML report (inline CSS and SVG, no scripts) here.", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Write the Markdown summary here as well.", valueName: "file"))
    var markdown: String?

    @Option(
        help: ArgumentHelp(
            "Compare each transport and gesture kind's step latencies with this results.json (or a --merged one).",
            discussion: "Regressed when the Mann–Whitney U test says the latencies moved (p < 0.01 over the groups compared) and the p50 rose by at least 1 ms and 10 % (docs/report.md, \"The regression rule\").",
            valueName: "file"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "Write the merged results here, in the results.json format (usable as a --baseline).", valueName: "file"))
    var merged: String?

    @Flag(help: "Exit 1 when a transport and gesture kind regressed against --baseline (with --history: in the newest run).")
    var failOnRegression = false

    func validate() throws {
        if history {
            if baseline != nil || merged != nil {
                throw ValidationError("--history compares each run with its earlier runs: leave out --baseline and --merged")
            }
            if let keep { try Self.keepRange.check(keep) }
            return
        }
        if keep != nil { throw ValidationError("--keep removes old runs of a history: add --history") }
        if failOnRegression && baseline == nil {
            throw ValidationError("--fail-on-regression compares with a baseline: add --baseline FILE, or use --history")
        }
    }

    func run() async throws {
        try prepareOutputs()
        if history { return try runHistory() }
        var parts: [RunResults] = []
        var problems = 0
        for file in results.map(Self.resultsFile) {
            do {
                // Capture paths are relative to their results.json's folder: made absolute here, then relative to
                // each file written (report.html, --merged), wherever it goes.
                let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
                parts.append(try RunResults.load(contentsOf: file).capturesAbsolute(from: folder))
            } catch {
                problems += 1
                printError(error.description)
            }
        }
        var base: RunResults?
        if let baseline {
            do {
                base = try RunResults.load(contentsOf: baseline)
            } catch {
                problems += 1
                printError(error.description)
            }
        }
        if problems > 0 {
            printError("hil report: \(problems) file(s) with problems; no report written")
            throw ExitCause.invalidInput.exit
        }
        let run: RunResults
        do {
            run = try RunResults.merge(parts)
        } catch {
            printError(error.description)
            throw ExitCause.invalidInput.exit
        }
        let comparison = base.map { BaselineComparison(current: run, baseline: $0) }
        let summary = MarkdownSummary.render(run, baseline: comparison)
        print(summary, terminator: "")
        fflush(nil)

        do {
            // Capture paths are absolute here; each file gets them relative to its own folder.
            if let html {
                try ReportFiles.writeHTML(run, baseline: comparison, to: html)
                printError("hil report: wrote \(html)")
            }
            if let markdown {
                try ReportFiles.write(summary, to: markdown)
                printError("hil report: wrote \(markdown)")
            }
            if let merged {
                let folder = URL(fileURLWithPath: merged).deletingLastPathComponent().path
                try ReportFiles.write(run.capturesRelative(to: folder).jsonText, to: merged)
                printError(
                    "hil report: wrote \(merged) (\(counted(run.scenarios.count, "scenario")) from \(run.sources.count) file(s))")
            }
        } catch {
            printError(error.description)
            throw ExitCause.invalidInput.exit
        }

        if let comparison, failOnRegression, comparison.hasRegression {
            printError("hil report: regressed against \(baseline ?? "the baseline"): \(Self.regressions(comparison))")
            throw ExitCause.productFailed.exit
        }
    }

    /// A run's folder (what `hil run --output` names) stands for the results.json in it.
    static func resultsFile(_ path: String) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return path }
        return (path as NSString).appendingPathComponent("results.json")
    }

    /// Every file to write can be written, before any work: a missing folder is made; a path that is a folder, or a
    /// folder that cannot be made, ends the command here (exit 64), with nothing printed but the reason.
    private func prepareOutputs() throws {
        let outputs = [("--html", html, "report.html"), ("--markdown", markdown, "summary.md"), ("--merged", merged, "results.json")]
        var refused = false
        for case let (option, path?, suggested) in outputs {
            if let problem = FileAccess.prepareToWrite(path, suggested: suggested) {
                printError("hil report: \(option) \(path): \(problem.reason)")
                refused = true
            }
        }
        if refused { throw ExitCause.invalidInput.exit }
    }

    /// --history: the runs of the folders (the oldest removed beyond --keep), the page, the summary, the verdict.
    private func runHistory() throws {
        let analysis: HistoryAnalysis
        do {
            var runs = try RunHistory.load(results)
            if let keep {
                for folder in try runs.prune(keeping: keep) { printError("hil report: removed \(folder) (--keep \(keep))") }
            }
            for entry in runs.skipped { printError("hil report: skipped \(entry.folder): \(entry.reason)") }
            analysis = HistoryAnalysis(runs)
            print(try ReportFiles.writeHistory(analysis, html: html, markdown: markdown), terminator: "")
            fflush(nil)
        } catch {
            printError(error.description)
            throw ExitCause.invalidInput.exit
        }
        if let html { printError("hil report: wrote \(html) (\(analysis.runs.count) runs)") }
        if let markdown { printError("hil report: wrote \(markdown)") }
        if failOnRegression, let newest = analysis.newest, let comparison = newest.comparison, comparison.hasRegression {
            printError("hil report: \(newest.run.name) regressed against its \(newest.reference.count) earlier run(s): "
                + Self.regressions(comparison))
            throw ExitCause.productFailed.exit
        }
    }

    private static func regressions(_ comparison: BaselineComparison) -> String {
        comparison.regressions.map { entry in
            "\(entry.group.label) p50 \(format(entry.baseline?.p50)) → \(format(entry.current?.p50)) ms"
                + " (p \(entry.shift?.test.map { String(format: "%.1g", $0.pValue) } ?? "-"))"
        }.joined(separator: "; ")
    }

    private static func format(_ value: Double?) -> String {
        value.map { String(format: "%.1f", $0) } ?? "-"
    }
}
