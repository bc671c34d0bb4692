/// One scenario's verdicts over the repeats of a run (`hil run --repeat`): the `stability` entries of
/// results.json and the flaky test cases of junit.xml.
package struct ScenarioStability: Sendable, Equatable {
    package var file: String
    package var name: String
    /// The verdict of each repeat, in repeat order.
    package var outcomes: [ScenarioResult.Outcome]

    package init(file: String, name: String, outcomes: [ScenarioResult.Outcome]) {
        self.file = file
        self.name = name
        self.outcomes = outcomes
    }

    /// The verdict differed between repeats.
    package var flaky: Bool { Set(outcomes).count > 1 }

    /// How many repeats passed.
    package var passed: Int { outcomes.filter { $0 == .passed }.count }

    /// Verdicts by scenario file, in first-run order.
    ///
    /// - Parameter scenarios: every scenario record of the run, repeats included.
    /// - Returns: one entry per scenario file.
    package static func of(_ scenarios: [ScenarioResult]) -> [ScenarioStability] {
        var order: [String] = []
        var byFile: [String: ScenarioStability] = [:]
        for scenario in scenarios {
            if byFile[scenario.file] == nil {
                order.append(scenario.file)
                byFile[scenario.file] = ScenarioStability(file: scenario.file, name: scenario.name, outcomes: [])
            }
            byFile[scenario.file]!.outcomes.append(scenario.outcome)
        }
        return order.map { byFile[$0]! }
    }
}
