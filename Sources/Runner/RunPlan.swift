package import Scenario
package import Records

/// The scenario runs of a `hil run`: each scenario on each transport asked for, repeated. A scenario that does not
/// apply to a transport (its `run.transports`) is not run there: it is reported not applicable, never passed.
package struct RunPlan: Sendable {
    /// Which transports each scenario runs on.
    package enum Choice: Sendable {
        /// Each scenario's own (`run.transport`, else ble).
        case scenarios
        case only(Transport)
        /// These transports, each result named with its transport.
        case several([Transport])
        /// Every transport, each result named with its transport.
        case all
    }

    package var items: [LanePool.Item] = []
    package var notApplicable: [(number: Int, result: ScenarioResult)] = []
    /// Runs per repeat, for the `[i/n]` labels.
    package var perRepeat = 0

    /// - Parameter unavailable: transports this rig cannot carry, with why (a hardware box has no network hosts for
    ///   tcp and udp): their runs are not applicable, with that reason, rather than errors every night.
    /// - Parameter phone: the run's phone (`hil run --phone`): on ble and hid each scenario runs on it, with its own
    ///   profile (`run.phone`), or is not applicable when it needs another stack.
    package init(_ scenarios: [Scenario], repeats: Int, choice: Choice, unavailable: [Transport: String] = [:],
                 phone: PhoneChoice = PhoneChoice(stack: .bluez))
    {
        let pairs = scenarios.enumerated().flatMap { index, scenario in
            Self.transports(scenario, choice).map { (index: index, scenario: scenario, transport: $0) }
        }
        perRepeat = pairs.count
        for repetition in 1...repeats {
            for (position, pair) in pairs.enumerated() {
                let number = (repetition - 1) * pairs.count + position + 1
                var scenario = pair.scenario
                if Self.namesTransports(choice) { scenario.script.name += " [\(pair.transport.rawValue)]" }
                var why: String? = scenario.run.applies(to: pair.transport)
                    ? unavailable[pair.transport]
                    : "the scenario applies to " + (scenario.run.transports ?? []).map(\.rawValue).joined(separator: ", ") + " only (run.transports)"
                if why == nil, !pair.transport.isNetwork {
                    switch scenario.run.phone.effective(on: phone) {
                    case .success(let effective):
                        scenario.run.phone = effective
                        if effective.stack == .bumble { why = scenario.bumblePhoneProblem }
                    case .failure(let error): why = error.what
                    }
                }
                if let why {
                    var result = ScenarioResult(
                        file: scenario.file, name: scenario.name, requirements: scenario.script.requirements, outcome: .notApplicable,
                        steps: [], message: "not applicable on \(pair.transport.rawValue): " + why, durationMs: 0)
                    result.transport = pair.transport.rawValue
                    result.repetition = repetition
                    notApplicable.append((number, result))
                    continue
                }
                items.append(LanePool.Item(number: number, repetition: repetition, index: position, scenario: scenario,
                                           transport: pair.transport))
            }
        }
    }

    /// Whether a result's name ends in its transport (` [tcp]`): when a scenario runs on several.
    static func namesTransports(_ choice: Choice) -> Bool {
        switch choice {
        case .all, .several: true
        case .scenarios, .only: false
        }
    }

    /// `all`: every transport; `only(t)`: t; else the scenario's own (`run.transport`, else ble).
    static func transports(_ scenario: Scenario, _ choice: Choice) -> [Transport] {
        switch choice {
        case .all: Transport.allCases
        case .only(let transport): [transport]
        case .several(let transports): transports
        case .scenarios: [scenario.run.transport ?? .ble]
        }
    }
}
