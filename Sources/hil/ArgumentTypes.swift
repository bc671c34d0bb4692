public import ArgumentParser
public import RemoteTouchProtocol
public import Scenario
import Peripheral

// Option values argument-parser parses itself: a bad value is refused with the allowed ones, and `--help` lists
// them.

/// `--write-path dbus|fd` (hil run), `--path dbus|fd` (hil soak).
extension RunSettings.WritePath: ExpressibleByArgument {}

/// `--mode presentation|mediaControl|basicMouse` (hil decode).
extension ControlMode: ExpressibleByArgument {}

/// `--shard i/n` (hil run).
extension Shard: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }

    public var defaultValueDescription: String { description }
}

/// `--paths dbus,fd` (hil bench): write paths, comma-separated, each one once.
struct WritePaths: ExpressibleByArgument, CustomStringConvertible {
    var paths: [RunSettings.WritePath]

    init(_ paths: [RunSettings.WritePath]) {
        self.paths = paths
    }

    init?(argument: String) {
        let parsed = argument.split(separator: ",").map { RunSettings.WritePath(rawValue: String($0)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }), Set(parsed).count == parsed.count else { return nil }
        paths = parsed.compactMap { $0 }
    }

    var description: String { paths.map(\.rawValue).joined(separator: ",") }
    var defaultValueDescription: String { description }
    static var allValueStrings: [String] { ["dbus", "fd", "dbus,fd", "fd,dbus"] }
}

/// `--transports ble,tcp` (hil peripheral): the transports served at once, comma-separated, each one once.
struct ComputerTransports: ExpressibleByArgument, CustomStringConvertible {
    var transports: [PeripheralConfiguration.Transport]

    init(_ transports: [PeripheralConfiguration.Transport]) {
        self.transports = transports
    }

    init?(argument: String) {
        let parsed = argument.split(separator: ",").map { PeripheralConfiguration.Transport(rawValue: String($0)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }), Set(parsed).count == parsed.count else { return nil }
        transports = parsed.compactMap { $0 }
    }

    var description: String { transports.map(\.rawValue).joined(separator: ",") }
    var defaultValueDescription: String { description }
    static var allValueStrings: [String] { ["ble", "tcp", "ble,tcp"] }
}
