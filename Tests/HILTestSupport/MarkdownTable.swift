package import Foundation

/// A doc without the heading a test reads a table under.
package struct MarkdownTableError: Error, CustomStringConvertible {
    package var description: String
}

/// The rows of the first Markdown table after a heading of a doc, each row's cells trimmed (the header and the
/// separator row left out).
package func markdownTable(_ doc: String, under heading: String) throws -> [[String]] {
    let text = try String(contentsOf: packageRoot.appendingPathComponent(doc), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: heading) else { throw MarkdownTableError(description: "\(doc) has no heading \"\(heading)\"") }
    let table = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
    return table.dropFirst(2).map { row in Array(cells(of: row).dropFirst().dropLast()) }
}

/// A table row's cells, split at each `|` that is not escaped (`\|` is a `|` inside a cell), trimmed.
private func cells(of row: String) -> [String] {
    var cells = [""]
    var escaped = false
    for character in row {
        if escaped {
            cells[cells.count - 1].append(character == "|" ? "|" : "\\\(character)")
            escaped = false
        } else if character == "\\" {
            escaped = true
        } else if character == "|" {
            cells.append("")
        } else {
            cells[cells.count - 1].append(character)
        }
    }
    return cells.map { $0.trimmingCharacters(in: .whitespaces) }
}

/// The text of a cell that is one code span: `` `KEY_A` `` is `KEY_A`, ``` `` ` `` ``` is a backtick.
package func codeSpan(_ cell: String) -> String {
    if cell.hasPrefix("`` "), cell.hasSuffix(" ``") { return String(cell.dropFirst(3).dropLast(3)) }
    return cell.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
}
