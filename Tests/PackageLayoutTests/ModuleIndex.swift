import Foundation

/// The names of every module of this package (not the C modules: their names come from headers), and which of a
/// file's imports of them bring a name the file uses.
struct ModuleIndex {
    let symbols: [String: ModuleSymbols]
    /// The enum cases each module declares and no other does: `.int32(…)` is DBus's, `.error` could be anyone's.
    let distinctCases: [String: Set<String>]
    /// The types each target declares, test targets too: a file's own target's types shadow those of its imports.
    let ownTypes: [String: Set<String>]
    /// Every target's files, read once.
    let sources: [String: [SwiftSource]]

    init(_ manifest: PackageManifest) throws {
        var symbols: [String: ModuleSymbols] = [:], own: [String: Set<String>] = [:], wholeExports: [(String, String)] = []
        var read: [String: [SwiftSource]] = [:]
        for target in manifest.targets {
            let sources = try PackageManifest.swiftFiles(under: target.folder).map { try SwiftSource(file: $0, root: manifest.root) }
            read[target.name] = sources
            let names = ModuleSymbols(sources: sources)
            if target.isTest { own[target.name] = names.types } else { symbols[target.name] = names }
            wholeExports += sources.flatMap(\.exports).filter { $0.name == nil }.map { (target.name, $0.module) }
        }
        for (module, exported) in wholeExports { if let names = symbols[exported] { symbols[module]?.adopt(names) } }
        self.symbols = symbols
        sources = read
        ownTypes = own.merging(symbols.mapValues(\.types)) { first, _ in first }
        var owners: [String: Int] = [:]
        for module in symbols.values { for name in module.cases { owners[name, default: 0] += 1 } }
        distinctCases = symbols.mapValues { $0.cases.filter { owners[$0] == 1 } }
    }

    /// Whether `source`, a file of `target`, uses a name of `module`: it names the module, one of its types or
    /// top-level names (less the target's own, which shadow them), a member or conformance it adds to another module's
    /// type, or one of the enum cases only it declares.
    func uses(_ source: SwiftSource, _ module: String, from target: String) -> Bool {
        guard let symbols = symbols[module] else { return true }
        if source.identifiers.contains(module) { return true }
        let names = symbols.names(besides: ownTypes[target] ?? [])
        return !source.identifiers.isDisjoint(with: names) || !source.implicitMembers.isDisjoint(with: distinctCases[module] ?? [])
    }

    /// The imports of a package module in `source`, a file of `target`, from which the file uses no name.
    func deadImports(in source: SwiftSource, of target: String) -> [String] {
        source.imports.filter { $0 != target && symbols[$0] != nil && !uses(source, $0, from: target) }
    }
}
