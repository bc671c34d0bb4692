import ArgumentParser
import Runner
import Scenario

/// `--transport ble|hid|tcp|udp|all`, or several separated by commas (`ble,udp`): which transports each scenario
/// runs on (hil run), which ones are measured (hil bench).
enum TransportChoice: ExpressibleByArgument, CustomStringConvertible {
    case one(Transport)
    case several([Transport])
    case all

    init?(argument: String) {
        if argument == "all" {
            self = .all
        } else if let transport = Transport(rawValue: argument) {
            self = .one(transport)
        } else if let list = CommaSeparated<Transport>(argument: argument) {
            self = .several(list.values)
        } else {
            return nil
        }
    }

    var description: String {
        switch self {
        case .one(let transport): transport.rawValue
        case .several(let transports): transports.map(\.rawValue).joined(separator: ",")
        case .all: "all"
        }
    }

    /// The transports it names, in the order given.
    var transports: [Transport] {
        switch self {
        case .one(let transport): [transport]
        case .several(let transports): transports
        case .all: Transport.allCases
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
        case .several(let transports): .several(transports)
        case .all: .all
        }
    }
}
