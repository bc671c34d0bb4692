package import Records
import TextMarkup

/// The mutation results as people read them: a table of every fault (what became of it, which scenario caught it
/// with its first failure line, or why a survivor is argued) and the score.
package enum MutationTable {
    /// A Markdown table and the score lines (mutations.md, and the console at the end of a run).
    package static func markdown(_ results: MutationResults) -> String {
        var lines = ["| fault | area | outcome | caught by, or why not |", "|---|---|---|---|"]
        for entry in results.entries {
            let outcome = entry.outcome == .survived && entry.argued != nil ? "survived (argued \(entry.argued!.kind.rawValue))" : entry.outcome.rawValue
            let why: String = switch entry.outcome {
            case .caught: "\(entry.caughtBy ?? "?"): \(entry.detail ?? "")"
            case .survived: entry.argued?.why ?? "**not argued**: a hole in the suites, or a fault to argue"
            case .broken: entry.detail ?? ""
            }
            lines.append("| `\(entry.id)` | \(entry.area) | \(outcome) | \(cell(why)) |")
        }
        lines.append("")
        lines.append(summary(results))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `score 96.2 % (50 of 52 caught; 1 argued equivalent, not counted; 0 broken) against Scenarios/`
    package static func summary(_ results: MutationResults) -> String {
        let caught = results.entries.filter { $0.outcome == .caught }.count
        let equivalent = results.entries.filter { $0.argued?.kind == .equivalent }.count
        let broken = results.entries.filter { $0.outcome == .broken }.count
        let score = results.score.map { String(format: "%.1f %%", $0 * 100) } ?? "none"
        var text = "score \(score): \(caught) of \(results.counted.count) counted faults caught"
            + " (\(results.entries.count) in the catalogue; \(equivalent) argued equivalent and \(broken) broken, not counted)"
            + " against \(results.suites.joined(separator: ", then "))"
        let unargued = results.unargued
        if !unargued.isEmpty { text += "\nsurvivors not argued: " + unargued.map(\.id).joined(separator: ", ") }
        return text
    }

    private static func cell(_ text: String) -> String {
        Markup.markdownCell(text.count > 300 ? String(text.prefix(300)) + "…" : text)
    }
}
