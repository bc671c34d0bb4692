import ArgumentParser
import Runner
import Scenario

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

extension TransportChoice {
    /// What the run plan does with it (nil: each scenario's own transport).
    static func plan(_ choice: TransportChoice?) -> RunPlan.Choice {
        switch choice {
        case nil: .scenarios
        case .one(let transport): .only(transport)
        case .all: .all
        }
    }
}
