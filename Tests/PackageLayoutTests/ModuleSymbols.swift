import Foundation

/// The names a module of this package declares that a file importing it can use, read from its sources: its types
/// (nested ones too), top-level functions, variables and typealiases; the members of its extensions of other modules'
/// types and the types it adds a conformance to (importing it is how a file sees them); its enum cases.
///
/// Read as text, with braces telling a type's body from a function's: what is declared inside a function, a closure
/// or an accessor is local and not counted. Members of its own types are not counted either: a file reaches them
/// through one of its types, which it then names, or through a value another module hands it, which needs no import.
struct ModuleSymbols {
    /// Types, typealiases, and top-level functions and variables.
    var types: Set<String> = []
    /// Members declared in an extension, with the type extended (its first component: `EvdevLog` of `EvdevLog.Error`).
    var extensionMembers: [(extended: String, name: String)] = []
    /// Types extended with a conformance (the last component of the name), with the first component of the name.
    var conformances: [(extended: String, name: String)] = []
    var cases: Set<String> = []

    private enum Scope: Equatable {
        case type, enumeration, code
        case extensionOf(String)
    }

    static let keyword = try! NSRegularExpression(
        pattern: #"[{}]|\b(struct|class|enum|protocol|actor|extension|typealias|func|var|let|init|subscript|deinit|case)\b"#)
    static let name = try! NSRegularExpression(pattern: #"\s*([A-Za-z_][A-Za-z0-9_.]*)"#)
    static let conformance = try! NSRegularExpression(pattern: #"\s*(?:<[^>{]*>)?\s*:"#)
    static let keywords: Set<String> = ["func", "var", "let", "class", "static", "final", "override", "init"]

    init(sources: [SwiftSource]) {
        for source in sources {
            read(source.code)
            // A declaration it re-exports is one of its names (a whole module re-exported: `ModuleIndex`).
            types.formUnion(source.exports.compactMap(\.name))
        }
    }

    /// Adds the names of `other`, a module this one re-exports whole.
    mutating func adopt(_ other: ModuleSymbols) {
        types.formUnion(other.types)
        extensionMembers += other.extensionMembers
        conformances += other.conformances
    }

    /// The names of this module a file of another module may use: its types less the file's module's own (they shadow
    /// them), and the members and conformances it adds to types that are not its own.
    func names(besides own: Set<String>) -> Set<String> {
        types.subtracting(own)
            .union(extensionMembers.filter { !types.contains($0.extended) }.map(\.name))
            .union(conformances.filter { !types.contains($0.extended) }.map(\.name))
    }

    private mutating func read(_ code: String) {
        let text = code as NSString
        var stack: [Scope] = [], pending: Scope?
        for match in Self.keyword.matches(in: code, range: NSRange(location: 0, length: text.length)) {
            let token = text.substring(with: match.range)
            if token == "{" { stack.append(pending ?? .code); pending = nil; continue }
            if token == "}" { _ = stack.popLast(); pending = nil; continue }
            let named = Self.name.firstMatch(in: code, options: .anchored, range: NSRange(location: match.range.upperBound,
                                                                                       length: text.length - match.range.upperBound))
            let name = named.map { text.substring(with: $0.range(at: 1)) }
            if stack.contains(.code) {
                pending = .code
                continue
            }
            switch token {
            case "struct", "class", "enum", "protocol", "actor":
                if token == "class", let name, Self.keywords.contains(name) { continue }  // `class func`, `class var`
                pending = token == "enum" ? .enumeration : .type
                if let name { types.insert(name) }
            case "extension":
                guard let name, let end = named?.range.upperBound else { continue }
                let first = String(name.prefix { $0 != "." })
                pending = .extensionOf(first)
                let after = NSRange(location: end, length: text.length - end)
                if Self.conformance.firstMatch(in: code, options: .anchored, range: after) != nil {
                    conformances.append((first, String(name.split(separator: ".").last ?? "")))
                }
            case "case":
                if stack.last == .enumeration { cases.formUnion(Self.caseNames(in: text, after: match.range.upperBound)) }
            default:
                if ["func", "init", "subscript", "deinit", "var", "let"].contains(token) { pending = .code }
                guard let name, !Self.keywords.contains(name) else { continue }
                switch stack.last {
                case nil: types.insert(name)
                case .extensionOf(let extended)?:
                    if token == "typealias" { types.insert(name) } else { extensionMembers.append((extended, name)) }
                default:
                    if token == "typealias" { types.insert(name) }
                }
            }
        }
    }

    /// The names of `case a, b(Int), c = 3`: the rest of the line, payloads left out.
    static func caseNames(in text: NSString, after location: Int) -> [String] {
        let line = text.substring(with: text.lineRange(for: NSRange(location: location, length: 0)))
        guard let start = line.range(of: "case") else { return [] }
        var rest = String(line[start.upperBound...])
        while let payload = rest.range(of: #"\([^()]*\)"#, options: .regularExpression) { rest.removeSubrange(payload) }
        return rest.split(separator: ",").compactMap { part in
            let name = part.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            return name.isEmpty ? nil : String(name)
        }
    }
}
