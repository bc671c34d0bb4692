import Foundation

/// A Swift file as the layout checks read it: its code with comments and the text of string literals blanked out
/// (an interpolation is code and stays), the modules it imports, and the names its code uses.
struct SwiftSource {
    /// The path under the package's root, for messages.
    let path: String
    /// The text with every comment and literal text replaced by one space; line breaks kept.
    let code: String
    /// The modules of its `import` lines (`package import M`, `@testable import M`, `import struct M.T`…), less those
    /// it re-exports.
    let imports: [String]
    /// What its `@_exported import` lines hand on to its module's importers: a module, or one of its declarations
    /// (`@_exported import struct LatencyStats.SplitMix64`).
    let exports: [(module: String, name: String?)]
    /// Every identifier of the code outside its import lines.
    let identifiers: Set<String>
    /// The names written as an implicit member, `.name` (an enum case, a static member).
    let implicitMembers: Set<String>

    static let importLine = try! NSRegularExpression(
        pattern: #"^\s*(?:@testable\s+|@_implementationOnly\s+|@_exported\s+|package\s+|public\s+|internal\s+)*import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?(\w+)[^\n]*"#,
        options: .anchorsMatchLines)
    static let identifier = try! NSRegularExpression(pattern: #"[A-Za-z_][A-Za-z0-9_]*"#)
    /// `.name` where the dot does not follow an expression (`x.name`, `f().name`, `a[0].name`).
    static let implicitMember = try! NSRegularExpression(pattern: #"(?<![\w)\]?!>])\.([A-Za-z_][A-Za-z0-9_]*)"#)

    init(path: String, text: String) {
        let code = Self.blanked(text)
        self.path = path
        self.code = code
        let lines = Self.matches(of: Self.importLine, in: code, group: 0), modules = Self.matches(of: Self.importLine, in: code, group: 1)
        imports = zip(lines, modules).filter { !$0.0.contains("@_exported") }.map(\.1)
        exports = zip(lines, modules).filter { $0.0.contains("@_exported") }.map { line, module in
            // `@_exported import struct M.Name`: the name after the module's.
            let name = line.split(separator: " ").last?.split(separator: ".").dropFirst().first.map(String.init)
            return (module, name)
        }
        let body = Self.importLine.stringByReplacingMatches(in: code, range: NSRange(code.startIndex..., in: code), withTemplate: "")
        identifiers = Set(Self.matches(of: Self.identifier, in: body, group: 0))
        implicitMembers = Set(Self.matches(of: Self.implicitMember, in: body, group: 1))
    }

    init(file: URL, root: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        self.init(path: String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)), text: text)
    }

    static func matches(of pattern: NSRegularExpression, in text: String, group: Int) -> [String] {
        pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    private enum Context {
        /// Code; inside an interpolation, the parentheses open since it began.
        case code(parentheses: Int)
        /// A string literal: its `#`s and whether it is a multi-line one.
        case literal(hashes: Int, multiline: Bool)
    }

    /// `text` with comments (nested `/* */` too) and the text of string literals (plain, raw, multi-line) each
    /// replaced by a space, and the code of their interpolations kept.
    static func blanked(_ text: String) -> String {
        let bytes = Array(text.utf8), count = bytes.count
        let (quote, hash, slash, star, newline, space) = (UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "/"),
                                                          UInt8(ascii: "*"), UInt8(ascii: "\n"), UInt8(ascii: " "))
        func at(_ index: Int, _ byte: UInt8) -> Bool { index < count && bytes[index] == byte }
        func hashes(from index: Int) -> Int { var end = index; while at(end, hash) { end += 1 }; return end - index }
        var out: [UInt8] = [], stack: [Context] = [.code(parentheses: 0)], index = 0
        out.reserveCapacity(count)
        while index < count {
            let byte = bytes[index]
            switch stack[stack.count - 1] {
            case .code(let parentheses):
                if byte == slash, at(index + 1, slash) {
                    while index < count, bytes[index] != newline { index += 1 }
                    out.append(space)
                } else if byte == slash, at(index + 1, star) {
                    var depth = 0
                    repeat {
                        if at(index, slash), at(index + 1, star) { depth += 1; index += 2 }
                        else if at(index, star), at(index + 1, slash) { depth -= 1; index += 2 }
                        else { if bytes[index] == newline { out.append(newline) }; index += 1 }
                    } while depth > 0 && index < count
                    out.append(space)
                } else if byte == quote || (byte == hash && at(index + hashes(from: index), quote)) {
                    let count = hashes(from: index), opening = index + count
                    let multiline = at(opening + 1, quote) && at(opening + 2, quote)
                    stack.append(.literal(hashes: count, multiline: multiline))
                    out.append(space)
                    index = opening + (multiline ? 3 : 1)
                } else {
                    if stack.count > 1, byte == UInt8(ascii: "(") { stack[stack.count - 1] = .code(parentheses: parentheses + 1) }
                    if stack.count > 1, byte == UInt8(ascii: ")") {
                        if parentheses == 0 { stack.removeLast(); out.append(space); index += 1; continue }
                        stack[stack.count - 1] = .code(parentheses: parentheses - 1)
                    }
                    out.append(byte)
                    index += 1
                }
            case .literal(let count, let multiline):
                let quotes = multiline ? 3 : 1
                if (0..<quotes).allSatisfy({ at(index + $0, quote) }), hashes(from: index + quotes) >= count {
                    stack.removeLast()
                    out.append(space)
                    index += quotes + count
                } else if byte == UInt8(ascii: "\\"), hashes(from: index + 1) >= count {
                    let next = index + 1 + count
                    if at(next, UInt8(ascii: "(")) {
                        stack.append(.code(parentheses: 0))
                        index = next + 1
                    } else {
                        if at(next, newline) { out.append(newline) }
                        index = next + 1
                    }
                } else {
                    if byte == newline { out.append(newline) }
                    index += 1
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
