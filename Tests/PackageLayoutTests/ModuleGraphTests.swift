import Foundation
import Testing

/// The module graph's rules, each of which can fail: no import the file uses nothing of (ModuleIndex), and every arrow
/// of Package.swift down the layer table written out in docs/architecture.md (LayerTable).
@Suite("The module graph: no dead import, every arrow down the documented layers")
struct ModuleGraphTests {
    static let root = PackageLayoutTests.root
    /// Every source read once, off the cooperative pool, for the tests here and PackageLayoutTests'.
    static let index = OffPoolValue { try ModuleIndex(try PackageManifest(root: root)) }

    /// Dead imports in files another change owns, each with who takes it out; an entry no longer dead fails, so the
    /// list cannot outlive its reason.
    static let pendingDeadImports: [String: Set<String>] = [:]

    @Test("no dead import: each import of a package module in Sources and Tests brings a name the file uses")
    func noDeadImports() async throws {
        let index = try await Self.index.value()
        #expect(index.symbols.count >= 35, "indexed only \(index.symbols.keys.sorted())")
        var dead: [String] = [], pending: [String: Set<String>] = [:], checked = 0
        for (target, sources) in index.sources {
            for source in sources {
                checked += source.imports.count
                for module in index.deadImports(in: source, of: target) {
                    if Self.pendingDeadImports[source.path]?.contains(module) == true {
                        pending[source.path, default: []].insert(module)
                    } else {
                        dead.append("\(source.path): import \(module)")
                    }
                }
            }
        }
        #expect(checked > 1000, "read only \(checked) imports")
        #expect(dead.isEmpty, """
            \(dead.count) import(s) from which the file uses no name: remove each (and the target's dependency in \
            Package.swift when no other file of it imports the module):
            \(dead.sorted().joined(separator: "\n"))
            """)
        for (path, modules) in Self.pendingDeadImports where pending[path] != modules {
            let used = modules.subtracting(pending[path] ?? []).sorted()
            Issue.record("\(path) no longer imports \(used) without using it: take it out of ModuleGraphTests.pendingDeadImports")
        }
    }

    @Test("the dead-import check tells a use from none: a type, an extension's member or conformance, a case, the module")
    func deadImportCheck() async throws {
        let index = try await Self.index.value()
        func dead(_ text: String, in target: String = "Runner") -> [String] {
            index.deadImports(in: SwiftSource(path: "Sample.swift", text: text), of: target)
        }
        #expect(dead("import Waiting\nlet x = 1\n") == ["Waiting"])
        #expect(dead("import Waiting\n// Poll.until, in a comment\nlet text = \"Poll\"\n") == ["Waiting"])
        #expect(dead("import Waiting\nlet text = \"\\(Poll.self)\"\n").isEmpty, "an interpolation is code")
        #expect(dead("import Waiting\nlet text = #\"\\#(Poll.self) and \\(x)\"#\n").isEmpty, "a raw string's interpolation")
        #expect(dead("package import Waiting\nfunc f() async throws { try await Poll.until(\"x\") { true } }\n").isEmpty)
        #expect(dead("import ScenarioDriver\nvar list = [2, 1]\nfunc f() { list.sortUnlessSorted(by: <) }\n").isEmpty,
                "a member ScenarioDriver adds to Array")
        #expect(dead("import hil\nlet e = JSONParseError.self\n", in: "ErrorShapeTests").isEmpty,
                "hil adds JSONParseError's conformance to ExplainedError")
        #expect(dead("import DBus\nlet bus = f(.address(\"unix:path=/x\"))\n").isEmpty, "DBusConnection.Bus.address")
        #expect(dead("import DBus\nlet e = f(.error)\n") == ["DBus"], "a case other modules declare too is no evidence")
        #expect(dead("import System\nlet e = System.self\n").isEmpty, "the module's own name")
    }

    @Test("every arrow of Package.swift goes down docs/architecture.md's layer table, and every module is in it")
    func arrowsGoDown() throws {
        let manifest = try PackageManifest(root: Self.root)
        let table = try LayerTable(document: try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"),
                                                        encoding: .utf8))
        let modules = manifest.targets.filter { !$0.isTest }
        let known = Set(modules.map(\.name) + manifest.systemLibraries)
        #expect(table.layers.count >= 38, "read only \(table.layers.keys.sorted()) from the table")
        let arrows = modules.map { (from: $0.name, to: $0.dependencies) } + manifest.systemLibraries.map { (from: $0, to: [String]()) }
        let violations = table.violations(arrows, known: known)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
        let stale = Set(table.layers.keys).subtracting(known)
        #expect(stale.isEmpty, "docs/architecture.md's layer table names \(stale.sorted()), which Package.swift does not have")
    }

    @Test("the layer check fails an arrow sideways or up, and a module the table does not have")
    func layerCheck() throws {
        let table = try LayerTable(document: "Who may import whom:\n\n```\n2  Upper · Side   what\n1  Lower\n```\n")
        let known: Set = ["Upper", "Side", "Lower", "Stray"]
        #expect(table.violations([("Upper", ["Lower", "ArgumentParser"]), ("Lower", [])], known: known).isEmpty)
        #expect(table.violations([("Upper", ["Side"])], known: known)
                == ["Upper (layer 2) imports Side (layer 2): an arrow must go down the layer table in docs/architecture.md; "
                    + "move the code, or the module to another layer there"])
        #expect(table.violations([("Lower", ["Upper"])], known: known).count == 1)
        #expect(table.violations([("Stray", [])], known: known).count == 1)
        #expect(table.violations([("Upper", ["Stray"])], known: known).count == 1)
        #expect(throws: LayerTableError.self) { try LayerTable(document: "no table here") }
    }
}
