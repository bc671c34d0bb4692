/// Text made safe for HTML and XML: escaped, and without characters XML cannot carry.
enum Markup {
    /// Escapes `&`, `<`, `>`, `"` and `'`; control characters other than tab, newline and carriage return
    /// (which XML 1.0 forbids even as references) become U+FFFD.
    static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{7F}", "\u{FFFE}", "\u{FFFF}": output += "\u{FFFD}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
