/// Writes JSON the way Apple's `JSONEncoder` does with its default options, so bytes we produce are the
/// bytes the real apps produce: no white space, keys in the given order, `/` escaped as `\/`, integral
/// numbers without a fraction (`10`, not `10.0`), other numbers in Swift's shortest round-trip form.
public struct JSONWriter: Sendable {
    /// Pretty output (two-space indent, `"key" : value`) as `JSONEncoder.OutputFormatting.prettyPrinted`.
    public var pretty: Bool

    public init(pretty: Bool = false) {
        self.pretty = pretty
    }

    public func bytes(_ value: JSONValue) -> [UInt8] {
        Array(string(value).utf8)
    }

    public func string(_ value: JSONValue) -> String {
        var output = ""
        write(value, into: &output, indent: 0)
        return output
    }

    /// The text Apple's encoder writes for a `Double` / `CGFloat`.
    public static func numberText(_ number: Double) -> String {
        precondition(number.isFinite, "JSON cannot carry \(number)")
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    private func write(_ value: JSONValue, into output: inout String, indent: Int) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += Self.numberText(number)
        case .string(let text): Self.writeString(text, into: &output)
        case .array(let elements):
            if elements.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(into: &output, indent: indent + 1)
                write(element, into: &output, indent: indent + 1)
            }
            newline(into: &output, indent: indent)
            output += "]"
        case .object(let object):
            if object.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            for (index, entry) in object.entries.enumerated() {
                if index > 0 { output += "," }
                newline(into: &output, indent: indent + 1)
                Self.writeString(entry.key, into: &output)
                output += pretty ? " : " : ":"
                write(entry.value, into: &output, indent: indent + 1)
            }
            newline(into: &output, indent: indent)
            output += "}"
        }
    }

    private func newline(into output: inout String, indent: Int) {
        guard pretty else { return }
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    private static func writeString(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "/": output += "\\/"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
