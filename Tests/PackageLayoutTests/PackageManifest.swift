import Foundation

/// Package.swift's targets as this package writes them: `.target(name: "X", dependencies: [...])`, the same with
/// `.testTarget` and `.executableTarget`, products as `.product(name: "P", package: "p")`. Read as text, not run: the
/// tests that use it check the module graph without a second SwiftPM in the build folder.
struct PackageManifest {
    struct Target {
        var name: String
        var isTest: Bool
        /// Targets of this package and products of others, by name.
        var dependencies: [String]
        /// Sources/NAME or Tests/NAME.
        var folder: URL
    }

    let root: URL
    let targets: [Target]
    /// The `.systemLibrary` targets (the C modules), by name.
    let systemLibraries: [String]

    init(root: URL) throws {
        self.root = root
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let opening = try NSRegularExpression(pattern: #"\.(target|testTarget|executableTarget)\(\s*name:\s*"([^"]+)""#)
        var found: [Target] = []
        let whole = text as NSString
        for match in opening.matches(in: text, range: NSRange(location: 0, length: whole.length)) {
            let kind = whole.substring(with: match.range(at: 1))
            let name = whole.substring(with: match.range(at: 2))
            let rest = whole.substring(from: match.range.upperBound)
            let isTest = kind == "testTarget"
            var folder = root.appendingPathComponent(isTest ? "Tests" : "Sources").appendingPathComponent(name)
            if let path = Self.path(in: rest) { folder = root.appendingPathComponent(path) }
            found.append(Target(name: name, isTest: isTest, dependencies: Self.dependencies(in: rest), folder: folder))
        }
        targets = found
        let system = try NSRegularExpression(pattern: #"\.systemLibrary\(\s*name:\s*"([^"]+)""#)
        systemLibraries = system.matches(in: text, range: NSRange(location: 0, length: whole.length)).map { whole.substring(with: $0.range(at: 1)) }
    }

    /// A target's `path: "…"`, before its closing parenthesis.
    static func path(in rest: String) -> String? {
        guard let end = Self.closingParenthesis(in: rest) else { return nil }
        let body = String(rest[..<end])
        guard let key = body.range(of: "path: \""), let close = body[key.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(body[key.upperBound..<close])
    }

    /// The names in the first `dependencies: [...]` of `rest`, before the target's closing parenthesis.
    static func dependencies(in rest: String) -> [String] {
        guard let end = Self.closingParenthesis(in: rest) else { return [] }
        let body = String(rest[..<end])
        guard let start = body.range(of: "dependencies:") else { return [] }
        var list = body[start.upperBound...]
        guard let open = list.firstIndex(of: "["), let close = list[open...].firstIndex(of: "]") else { return [] }
        list = list[list.index(after: open)..<close]
        // `.product(name: "P", package: "p")` counts as P; a bare "X" as X.
        let products = try! NSRegularExpression(pattern: #"\.product\(\s*name:\s*"([^"]+)"\s*,\s*package:\s*"[^"]+"\s*\)"#)
        let plain = try! NSRegularExpression(pattern: #""([^"]+)""#)
        var text = String(list)
        var names: [String] = []
        let ns = text as NSString
        for match in products.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            names.append(ns.substring(with: match.range(at: 1)))
        }
        text = products.stringByReplacingMatches(in: text, range: NSRange(location: 0, length: ns.length), withTemplate: "")
        let rest = text as NSString
        for match in plain.matches(in: text, range: NSRange(location: 0, length: rest.length)) {
            names.append(rest.substring(with: match.range(at: 1)))
        }
        return names
    }

    /// Where the call that `rest` continues ends: the first `)` at depth zero.
    static func closingParenthesis(in rest: String) -> String.Index? {
        var depth = 0
        for index in rest.indices {
            switch rest[index] {
            case "(": depth += 1
            case ")":
                if depth == 0 { return index }
                depth -= 1
            default: break
            }
        }
        return nil
    }

    func target(_ name: String) -> Target? { targets.first { $0.name == name } }

    /// The Swift files under `folder`, recursively.
    static func swiftFiles(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// The modules a target's files import.
    static func imports(of target: Target) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"^\s*(?:@testable\s+|@_implementationOnly\s+|@_exported\s+|package\s+|public\s+|internal\s+)*import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?(\w+)"#, options: .anchorsMatchLines)
        var modules: Set<String> = []
        for file in swiftFiles(under: target.folder) {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            let ns = text as NSString
            for match in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                modules.insert(ns.substring(with: match.range(at: 1)))
            }
        }
        return modules
    }
}
