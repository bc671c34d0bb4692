import Foundation

/// `hil run --list`: the scenarios with the transports they apply to, then requirement → scenarios per transport,
/// with what no scenario covers. Given several folders (the quick suite and the nightly one), each scenario is
/// listed under the folder it came from, and the coverage says which folder covers what.
package enum CoverageListing {
    /// `folders`: the paths given on the command line, in their order; a scenario belongs to the first one its
    /// file is (or is under). With fewer than two, the listing has no folder headings.
    package static func text(scenarios: [Scenario], catalog: RequirementCatalog?, all: [Scenario], folders: [String] = []) -> String {
        var groups = folders.count > 1 ? group(scenarios, by: folders) : []
        if groups.count < 2 { groups = [] }
        var lines: [String] = []
        if groups.isEmpty {
            lines.append("\(scenarios.count) scenario(s):")
            for scenario in scenarios { lines.append(line(scenario)) }
        } else {
            lines.append("\(scenarios.count) scenario(s) in \(groups.count) folders: \(groups.map { "\($0.folder) \($0.scenarios.count)" }.joined(separator: ", "))")
            for (folder, members) in groups {
                lines.append("\(folder) (\(members.count)):")
                for scenario in members { lines.append(line(scenario)) }
            }
        }
        guard let catalog else {
            lines.append("no requirements.json found beside or above \(scenarios.first?.file ?? "the scenarios"): no coverage table")
            return lines.joined(separator: "\n")
        }
        lines.append("")
        lines.append("coverage of \(catalog.file) by these scenarios:")
        var uncovered: [String] = []
        var uncoveredOn: [Transport: Int] = [:]
        var notObservable = 0
        var coveredBy: [String: [String]] = [:]
        let width = max(8, catalog.requirements.map(\.id.count).max() ?? 8)
        for (requirement, covering) in catalog.coverage(scenarios) {
            let id = requirement.id.padding(toLength: width, withPad: " ", startingAt: 0)
            if let why = requirement.notObservable {
                notObservable += 1
                lines.append("  \(id)  not observable on a rig: \(why)")
            } else if covering.isEmpty {
                uncovered.append(requirement.id)
                lines.append("  \(id)  NO SCENARIO — \(requirement.text)")
            } else {
                let counts = Transport.allCases.map { transport in
                    let count = covering.filter { $0.run.applies(to: transport) }.count
                    if count == 0 { uncoveredOn[transport, default: 0] += 1 }
                    return "\(transport.rawValue) \(count)"
                }
                let names: String
                if groups.isEmpty {
                    names = covering.map(fileName).joined(separator: ", ")
                } else {
                    names = groups.compactMap { folder, members in
                        let here = covering.filter { scenario in members.contains { $0.file == scenario.file } }
                        guard !here.isEmpty else { return nil }
                        coveredBy[folder, default: []].append(requirement.id)
                        return "\(folder): \(here.map(fileName).joined(separator: ", "))"
                    }.joined(separator: "; ")
                }
                lines.append("  \(id)  \(counts.joined(separator: " · ")) — \(names)")
            }
        }
        let observable = catalog.requirements.count - notObservable
        let covered = observable - uncovered.count
        lines.append("")
        lines.append("\(covered) of \(observable) observable requirements covered; \(notObservable) not observable on a rig")
        if !groups.isEmpty {
            let perFolder = groups.map { "\($0.folder) \(coveredBy[$0.folder]?.count ?? 0)" }
            lines.append("requirements covered per folder: \(perFolder.joined(separator: ", "))")
            for (folder, _) in groups {
                let others = Set(groups.filter { $0.folder != folder }.flatMap { coveredBy[$0.folder] ?? [] })
                let only = (coveredBy[folder] ?? []).filter { !others.contains($0) }
                if !only.isEmpty { lines.append("covered only by \(folder): \(only.joined(separator: ", "))") }
            }
        }
        let perTransport = Transport.allCases.map { "\($0.rawValue) \(covered - uncoveredOn[$0, default: 0])" }
        lines.append("requirements covered per transport (by the scenarios that apply to it), of \(observable): \(perTransport.joined(separator: ", "))")
        if !uncovered.isEmpty {
            lines.append("not covered by any scenario: \(uncovered.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }

    private static func line(_ scenario: Scenario) -> String {
        let transports = Transport.allCases.filter(scenario.run.applies(to:)).map(\.rawValue).joined(separator: ", ")
        return "  \(scenario.file) — \(scenario.name) [\(scenario.script.requirements.joined(separator: ", "))] (\(transports))"
    }

    private static func fileName(_ scenario: Scenario) -> String { (scenario.file as NSString).lastPathComponent }

    /// The scenarios under each folder, in the folders' order; folders with none are left out. A scenario under
    /// none of them (it cannot be, from hil run) goes with the last.
    private static func group(_ scenarios: [Scenario], by folders: [String]) -> [(folder: String, scenarios: [Scenario])] {
        var groups = folders.map { (folder: $0, scenarios: [Scenario]()) }
        for scenario in scenarios {
            let index = folders.firstIndex { folder in
                let prefix = folder.hasSuffix("/") ? folder : folder + "/"
                return scenario.file == folder || scenario.file.hasPrefix(prefix)
            } ?? folders.count - 1
            groups[index].scenarios.append(scenario)
        }
        return groups.filter { !$0.scenarios.isEmpty }
    }
}
