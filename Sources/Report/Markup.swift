/// Text made safe for HTML and XML: escaped, and without characters XML cannot carry. The one XML escaper of the
/// package: the HTML report and junit.xml both use it.
enum Markup {
    /// Escapes `&`, `<`, `>`, `"` and (unless `apostrophes` is false) `'`; control characters other than tab,
    /// newline and carriage return (which XML 1.0 forbids even as references) become U+FFFD.
    ///
    /// - Parameters:
    ///   - text: the text to put in an element or a double-quoted attribute.
    ///   - apostrophes: whether `'` becomes `&#39;`; junit.xml keeps it as it is (its attributes are
    ///     double-quoted), as it always did.
    static func escape(_ text: String, apostrophes: Bool = true) -> String {
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
}
