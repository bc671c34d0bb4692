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

    /// Verdicts by scenario file and transport, in first-run order: with `--transport all` each transport of a
    /// file is a scenario of its own (its name says which), so a scenario flaky on one transport is not charged
    /// to another's row, nor hidden in a row of four transports' verdicts.
    ///
    /// - Parameter scenarios: every scenario record of the run, repeats included.
    /// - Returns: one entry per scenario file and transport.
    package static func of(_ scenarios: [ScenarioResult]) -> [ScenarioStability] {
        var order: [String] = []
        var byRun: [String: ScenarioStability] = [:]
        for scenario in scenarios {
            let key = scenario.file + "\u{0}" + (scenario.transport ?? "")
            if byRun[key] == nil {
                order.append(key)
                byRun[key] = ScenarioStability(file: scenario.file, name: scenario.name, outcomes: [])
            }
            byRun[key]!.outcomes.append(scenario.outcome)
        }
        return order.map { byRun[$0]! }
    }
}
