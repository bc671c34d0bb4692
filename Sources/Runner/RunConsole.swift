import Foundation
package import Records
package import Report

/// What `hil run` prints: a line per scenario as it finishes, the tables at the end, the baseline's verdict, and
/// why a run stopped on a broken rig. Plain text; the files are `RunReport`'s and Report's.
package enum RunConsole {
    /// One scenario's line.
    package static func outcome(_ result: ScenarioResult, label: String) -> String {
        let p95 = result.latencySummary.p95.map { String(format: "p95 %.1f ms", $0) } ?? "no latency"
        let checked = result.steps.filter { $0.outcome != .unchecked }.count
        return "\(label) \(result.outcome.rawValue.uppercased()) \(result.name) — \(counted(checked, "checked step")), \(p95), "
            + String(format: "%.1f s", (result.durationMs ?? 0) / 1000)
    }

    /// Why a scenario did not pass, in one line under its own (`ScenarioResult.firstReason`, the most specific
    /// reason, as junit.xml's message and summary.md give it): printed with `-q` too. Nil for one that did not fail.
    package static func reason(_ result: ScenarioResult) -> String? {
        guard result.outcome.isFailure, !result.firstReason.isEmpty else { return nil }
        return "    " + result.firstReason
    }

    /// The rest of why a scenario did not pass, indented under its reason (`-q` leaves it out); nil for one that did
    /// not fail or has nothing more to say.
    package static func details(_ result: ScenarioResult) -> String? {
        guard result.outcome.isFailure else { return nil }
        var lines = RunReport.detail(result).split(separator: "\n").map(String.init)
        if lines.first?.trimmingCharacters(in: .whitespaces) == result.firstReason { lines.removeFirst() }
        return lines.isEmpty ? nil : lines.map { "    " + $0 }.joined(separator: "\n")
    }

    /// The table per scenario, the one per step kind, per transport when there are several, where the time went
    /// and, with --repeat, the stability table.
    package static func tables(_ results: [ScenarioResult], repeats: Int) -> String {
        var lines = ["", "outcome       p50 ms   p95 ms   max ms  scenario"]
        for result in results {
            let summary = result.latencySummary
            let cells = [summary.p50, summary.p95, summary.max].map { $0.map { String(format: "%8.1f", $0) } ?? "       -" }
            lines.append("\(result.outcome.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(cells.joined(separator: " ")) \(result.name)")
        }
        lines += ["", RunReport.kindTable(results)]
        if let transports = RunReport.transportTable(results) { lines += ["", transports] }
        let time = PhaseBreakdown(results)
        if time.scenarios > 0 { lines += ["", "where the time went: \(time.summaryLine)", time.table] }
        if repeats > 1 { lines += ["", RunReport.stabilityTable(results)] }
        return lines.joined(separator: "\n")
    }

    /// Which transports and gesture kinds regressed against --baseline.
    package static func baseline(_ comparison: BaselineComparison) -> String {
        let regressed = comparison.regressions
        guard !regressed.isEmpty else { return "baseline: nothing regressed (\(comparison.ruleText))" }
        return "baseline: REGRESSED " + regressed.map { entry in
            let p = entry.shift?.test.map { String(format: "%.1g", $0.pValue) } ?? "-"
            return "\(entry.group.label) p50 \(format(entry.baseline?.p50)) → \(format(entry.current?.p50)) ms (p = \(p))"
        }.joined(separator: "; ")
    }

    private static func format(_ value: Double?) -> String {
        value.map { String(format: "%.1f", $0) } ?? "-"
    }

    /// Why the run stopped early when its rig broke, and what to do about it.
    package static func rigBroken(_ broken: String, notDone: Int, results: String) -> String {
        """
        hil run: stopped because the rig broke: \(broken). \(notDone) scenario run(s) not done; the results so far \
        are in \(results) (the scenario that broke it is an error there, with its message).
          → the rig needs a restart: in the vm rig, run again (each run boots a fresh guest; the guest's dmesg and \
        btvirt log are in rig-logs); on a box, `bluetoothctl show`, `rfkill list` and dmesg say why, and restarting \
        bluetoothd or re-plugging the controller brings it back (exit status 125)
        """
    }
}
