package import Records

/// What a suite's run against one computer says, read from its results.json: caught at the first scenario that did
/// not pass (which one, and the first line of why), or survived.
package struct SuiteVerdict: Sendable, Equatable {
    /// The first scenario that did not pass (its file), nil when every one passed.
    package var caughtBy: String?
    /// Its outcome and the first line of why: `failed: steps[2] (swipe): accounting: frame 4 of …`.
    package var detail: String?
    /// How many scenarios ran.
    package var scenarios: Int

    package init(caughtBy: String?, detail: String?, scenarios: Int) {
        self.caughtBy = caughtBy
        self.detail = detail
        self.scenarios = scenarios
    }

    package var caught: Bool { caughtBy != nil }

    /// The verdict of `results`: the first scenario, in run order, whose outcome is a failure.
    package init(_ results: RunResults) {
        let ran = results.scenarios.filter { $0.outcome != .notApplicable }
        scenarios = ran.count
        guard let first = ran.first(where: { $0.outcome.isFailure }) else { return }
        caughtBy = first.file
        detail = "\(first.outcome.rawValue): " + Self.firstReason(first)
    }

    /// The most specific first line of why `scenario` did not pass: its first failed step's, else its own.
    static func firstReason(_ scenario: ScenarioResult) -> String {
        if let step = scenario.steps.first(where: \.isProblem) {
            let line = step.message.split(separator: "\n").first.map(String.init) ?? "(no message)"
            return "steps[\(step.index)] (\(step.kind)): \(line)"
        }
        return scenario.message.split(separator: "\n").first.map(String.init) ?? "(no message)"
    }
}
