/// Text made safe for the markup languages the package writes: HTML and XML (escaped, without characters XML cannot
/// carry) for the HTML report, junit.xml and D-Bus introspection data; Markdown table cells for the summary. The one
/// escaper of each.
package enum Markup {
    /// Escapes `&`, `<`, `>`, `"` and (unless `apostrophes` is false) `'`; control characters other than tab,
    /// newline and carriage return (which XML 1.0 forbids even as references) become U+FFFD.
    ///
    /// - Parameters:
    ///   - text: the text to put in an element or a double-quoted attribute.
    ///   - apostrophes: whether `'` becomes `&#39;`; junit.xml keeps it as it is (its attributes are
    ///     double-quoted), as it always did.
    package static func escape(_ text: String, apostrophes: Bool = true) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'" where apostrophes: output += "&#39;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{7F}", "\u{FFFE}", "\u{FFFF}": output += "\u{FFFD}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Text for a Markdown table cell: one line, pipes escaped, no HTML (`<`, `>` and `&` as references).
    package static func markdownCell(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "|": output += "\\|"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "&": output += "&amp;"
            case "\n", "\r", "\r\n", "\t": output += " "
            default: output.append(character)
            }
        }
        return output
    }
}
