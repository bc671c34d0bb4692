import ArgumentParser
import Runner
import Scenario
import ScenarioDriver

/// `hil run --transport ble|tcp|all`: which transports each scenario runs on.
enum TransportChoice: ExpressibleByArgument, CustomStringConvertible {
    case one(Transport)
    case all

    init?(argument: String) {
        if argument == "all" {
            self = .all
        } else if let transport = Transport(rawValue: argument) {
            self = .one(transport)
        } else {
            return nil
        }
    }

    var description: String {
        switch self {
        case .one(let transport): transport.rawValue
        case .all: "all"
        }
    }

    var defaultValueDescription: String { description }
    static var allValueStrings: [String] { Transport.allCases.map(\.rawValue) + ["all"] }
}

/// The scenario runs of a `hil run`: each scenario on each transport asked for, repeated. A scenario that does not
/// apply to a transport (its `run.transports`) is not run there: it is reported not applicable, never passed.
struct RunPlan {
    var items: [LanePool.Item] = []
    var notApplicable: [(number: Int, result: ScenarioResult)] = []
    /// Runs per repeat, for the `[i/n]` labels.
    var perRepeat = 0

    init(_ scenarios: [Scenario], repeats: Int, choice: TransportChoice?) {
        let pairs = scenarios.enumerated().flatMap { index, scenario in
            Self.transports(scenario, choice).map { (index: index, scenario: scenario, transport: $0) }
        }
        perRepeat = pairs.count
        for repetition in 1...repeats {
            for (position, pair) in pairs.enumerated() {
                let number = (repetition - 1) * pairs.count + position + 1
                var scenario = pair.scenario
                if case .all = choice { scenario.script.name += " [\(pair.transport.rawValue)]" }
                guard scenario.run.applies(to: pair.transport) else {
                    var result = ScenarioResult(
                        file: scenario.file, name: scenario.name, requirements: scenario.script.requirements, outcome: .notApplicable,
                        steps: [], message: "not applicable on \(pair.transport.rawValue): the scenario applies to "
                            + (scenario.run.transports ?? []).map(\.rawValue).joined(separator: ", ") + " only (run.transports)",
                        durationMs: 0)
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

    /// `--transport all`: every transport; `--transport t`: t; else the scenario's own (`run.transport`, else ble).
    static func transports(_ scenario: Scenario, _ choice: TransportChoice?) -> [Transport] {
        switch choice {
        case .all: Transport.allCases
        case .one(let transport): [transport]
        case nil: [scenario.run.transport ?? .ble]
        }
    }
}
