public import ArgumentParser
public import RemoteTouchProtocol
public import Scenario
import GestureScript
import Peripheral
import Evidence

// Option values argument-parser parses itself: a bad value is refused with the allowed ones, and `--help` lists
// them.

/// `--write-path dbus|fd|unconfirmed|requests` (hil run): the phone's write style.
extension WritePath: ExpressibleByArgument {}

/// `--write-path dbus|fd` (hil soak; a list in hil bench): how a stream of cursor moves is written. The other write
/// styles of `hil run` write such a stream as `dbus` does (all without response), so they are not offered here.
enum StreamWritePath: String, CaseIterable, Hashable, Sendable, ExpressibleByArgument {
    case dbus, fd
}

/// `--capture always|failed|never` (hil run).
extension CaptureMode: ExpressibleByArgument {}

/// `--transport ble|hid|tcp|udp` (hil record; run and bench take several: `TransportChoice`).
extension Transport: ExpressibleByArgument {}

/// `--mode presentation|mediaControl|basicMouse` (hil decode).
extension ControlMode: ExpressibleByArgument {}

/// `--shard i/n` (hil run).
extension Shard: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }

    public var defaultValueDescription: String { description }

    /// `--shard`'s value, or why it is none: `--shard 3/2: i is 1 to n (1 to 2), not 3`.
    static func parsing(_ text: String) throws -> Shard {
        if let shard = Shard(text) { return shard }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw ValidationError("--shard \(text): give i/n, slice i of n slices, e.g. 2/3")
        }
        guard let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ValidationError("--shard \(text): i and n are whole numbers, e.g. 2/3")
        }
        guard count >= 1 else { throw ValidationError("--shard \(text): n, the number of slices, is 1 or more") }
        throw ValidationError("--shard \(text): i is 1 to n (1 to \(count)), not \(index)")
    }
}

/// A comma-separated list of an option's values, each one once, in the order given: `--write-path dbus,fd` (hil
/// bench), `--transport ble,tcp` (hil peripheral). `--help` lists each value; the option's help says it takes several.
struct CommaSeparated<Value>: ExpressibleByArgument, CustomStringConvertible
where Value: RawRepresentable<String> & CaseIterable & Hashable & Sendable {
    var values: [Value]

    init(_ values: [Value]) {
        self.values = values
    }

    init?(argument: String) {
        let parsed = argument.split(separator: ",").map { Value(rawValue: String($0)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }), Set(parsed).count == parsed.count else { return nil }
        values = parsed.compactMap { $0 }
    }

    var description: String { values.map(\.rawValue).joined(separator: ",") }
    var defaultValueDescription: String { description }
    static var allValueStrings: [String] { Value.allCases.map(\.rawValue) }
}

/// `--write-path dbus,fd` (hil bench).
typealias WritePaths = CommaSeparated<StreamWritePath>
/// `--transport ble,tcp` (hil peripheral).
typealias ComputerTransports = CommaSeparated<PeripheralConfiguration.Endpoint>
