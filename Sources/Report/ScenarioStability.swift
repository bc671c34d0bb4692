/// One scenario's verdicts over the repeats of a run (`hil run --repeat`): the `stability` entries of
/// results.json and the flaky test cases of junit.xml.
public struct ScenarioStability: Sendable, Equatable {
    public var file: String
    public var name: String
    /// The verdict of each repeat, in repeat order.
    public var outcomes: [ScenarioRecord.Outcome]

    public init(file: String, name: String, outcomes: [ScenarioRecord.Outcome]) {
        self.file = file
        self.name = name
        self.outcomes = outcomes
    }

    /// The verdict differed between repeats.
    public var flaky: Bool { Set(outcomes).count > 1 }

    /// How many repeats passed.
    public var passed: Int { outcomes.filter { $0 == .passed }.count }

    /// Verdicts by scenario file, in first-run order.
    ///
    /// - Parameter scenarios: every scenario record of the run, repeats included.
    /// - Returns: one entry per scenario file.
    public static func of(_ scenarios: [ScenarioRecord]) -> [ScenarioStability] {
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
