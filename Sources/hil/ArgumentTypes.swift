public import ArgumentParser
public import RemoteTouchProtocol
public import Scenario

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
