import Foundation

/// `hil run --list`: the scenarios with the transports they apply to, then requirement → scenarios per transport,
/// with what no scenario covers.
package enum CoverageListing {
    package static func text(scenarios: [Scenario], catalog: RequirementCatalog?, all: [Scenario]) -> String {
        var lines = ["\(scenarios.count) scenario(s):"]
        for scenario in scenarios {
            let transports = Transport.allCases.filter(scenario.run.applies(to:)).map(\.rawValue).joined(separator: ", ")
            lines.append("  \(scenario.file) — \(scenario.name) [\(scenario.script.requirements.joined(separator: ", "))] (\(transports))")
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
                lines.append("  \(id)  \(counts.joined(separator: " · ")) — \(covering.map { ($0.file as NSString).lastPathComponent }.joined(separator: ", "))")
            }
        }
        let observable = catalog.requirements.count - notObservable
        lines.append("")
        lines.append("\(observable - uncovered.count) of \(observable) observable requirements covered; \(notObservable) not observable on a rig")
        let perTransport = Transport.allCases.map { "\($0.rawValue) \(observable - uncovered.count - uncoveredOn[$0, default: 0])" }
        lines.append("covered per transport (scenarios that apply to it): \(perTransport.joined(separator: ", "))")
        if !uncovered.isEmpty {
            lines.append("not covered by any scenario: \(uncovered.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}
