/// A D-Bus failure: an error reply (with its D-Bus error name, e.g. `org.bluez.Error.NotPermitted`), a
/// connection problem, or a message we could not marshal or unmarshal.
public struct DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The D-Bus error name: from the peer's error reply, or one of `org.freedesktop.DBus.Error.*` for
    /// failures on our side.
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    public static let failedName = "org.freedesktop.DBus.Error.Failed"
    public static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    public static let disconnectedName = "org.freedesktop.DBus.Error.Disconnected"
    public static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownObjectName = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownInterfaceName = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownPropertyName = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let propertyReadOnlyName = "org.freedesktop.DBus.Error.PropertyReadOnly"

    static func failed(_ message: String) -> DBusError { DBusError(name: failedName, message: message) }
    static func invalidArgs(_ message: String) -> DBusError { DBusError(name: invalidArgsName, message: message) }
}
