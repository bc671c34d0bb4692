import ArgumentParser
import Foundation
import Records
import Report

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

            With --baseline, each gesture kind's p95 is compared with the baseline's: it regressed when both runs \
            have at least 10 samples of the kind and the p95 is more than 1.2 × the baseline's and more than 1 ms \
            above it (docs/report.md).

            Exit status 1 when a file cannot be read or is not a results document (each problem is printed as \
            file: json.path: message), when shards do not belong together, when an output cannot be written, or \
            with --fail-on-regression when a kind regressed; 0 otherwise, whatever the scenarios' verdicts.
            """
    )

    @Argument(
        help: ArgumentHelp("results.json files of one run; several are its shards, merged.", valueName: "results.json"))
    var results: [String]

    @Option(
        help: ArgumentHelp("Write the self-contained HTML report (inline CSS and SVG, no scripts) here.", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Write the Markdown summary here as well.", valueName: "file"))
    var markdown: String?

    @Option(
        help: ArgumentHelp("Compare each gesture kind's p95 with this results.json (or a --merged one).", valueName: "file"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "Write the merged results here, in the results.json format (usable as a --baseline).", valueName: "file"))
    var merged: String?

    @Flag(help: "Exit 1 when any gesture kind's p95 regressed against --baseline.")
    var failOnRegression = false

    func validate() throws {
        if failOnRegression && baseline == nil {
            throw ValidationError("--fail-on-regression compares with a baseline: add --baseline FILE")
        }
    }

    func run() async throws {
        var parts: [RunResults] = []
        var problems = 0
        for file in results {
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
            throw ExitCode.failure
        }
        let run: RunResults
        do {
            run = try RunResults.merge(parts)
        } catch {
            printError(error.description)
            throw ExitCode.failure
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
                    "hil report: wrote \(merged) (\(run.scenarios.count) scenarios from \(run.sources.count) file(s))")
            }
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }

        if let comparison, failOnRegression, comparison.hasRegression {
            let kinds = comparison.regressions.map { kind in
                "\(kind.kind) p95 \(format(kind.baseline?.p95)) → \(format(kind.current?.p95)) ms"
            }
            printError("hil report: regressed against \(baseline ?? "the baseline"): \(kinds.joined(separator: "; "))")
            throw ExitCode.failure
        }
    }

    private func format(_ value: Double?) -> String {
        value.map { String(format: "%.1f", $0) } ?? "-"
    }
}
