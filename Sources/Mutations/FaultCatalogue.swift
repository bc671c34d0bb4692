import Foundation

/// The catalogue of faults: every `*.patch` of a folder (Mutations/faults), read and checked as a whole.
package enum FaultCatalogue {
    /// The faults of `folder`, by name.
    /// - Parameter requirements: the ids a fault may name (the suites' requirements.json); nil: not checked.
    /// - Throws: `MutationError` `.catalogue` with every problem of every file.
    package static func load(_ folder: String, requirements: Set<String>?) throws(MutationError) -> [Fault] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw MutationError(.catalogue, "cannot read the fault catalogue \(folder)", hint: "pass --faults DIR (the project's is Mutations/faults)")
        }
        var faults: [Fault] = []
        var problems: [String] = []
        for name in names.sorted() where name.hasSuffix(".patch") {
            let (fault, found) = Fault.read(folder + "/" + name)
            problems += found
            guard let fault else { continue }
            if let requirements {
                for id in fault.requirements where !requirements.contains(id) {
                    problems.append("\(fault.path): requirement \(id) is not in the suites' requirements.json")
                }
            }
            faults.append(fault)
        }
        guard problems.isEmpty else {
            throw MutationError(.catalogue, "the fault catalogue \(folder) has problems:\n" + problems.joined(separator: "\n"))
        }
        guard !faults.isEmpty else { throw MutationError(.catalogue, "no *.patch in \(folder)") }
        return faults
    }

    /// The faults whose id contains one of `patterns` (all when none is given).
    /// - Throws: `MutationError` `.catalogue` when a pattern matches no fault.
    package static func select(_ faults: [Fault], _ patterns: [String]) throws(MutationError) -> [Fault] {
        guard !patterns.isEmpty else { return faults }
        for pattern in patterns where !faults.contains(where: { $0.id.contains(pattern) }) {
            throw MutationError(.catalogue, "no fault's name contains \(pattern)", hint: "`hil mutants list` names them")
        }
        return faults.filter { fault in patterns.contains { fault.id.contains($0) } }
    }
}
