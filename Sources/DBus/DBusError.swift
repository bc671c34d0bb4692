import System

/// A D-Bus failure: an error reply (with its D-Bus error name, e.g. `org.bluez.Error.NotPermitted`), a
/// connection problem, or a message we could not marshal or unmarshal.
package struct DBusError: ExplainedError, Sendable, Equatable {
    /// The kind of failure is the D-Bus error name: `org.bluez.Error.NotPermitted`.
    package struct Code: RawRepresentable, Hashable, Sendable {
        package var rawValue: String

        package init(rawValue: String) {
            self.rawValue = rawValue
        }
    }

    /// The D-Bus error name: from the peer's error reply, or one of `org.freedesktop.DBus.Error.*` for
    /// failures on our side.
    package var name: String
    package var message: String

    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The D-Bus error name, as a code to branch on.
    package var code: Code { Code(rawValue: name) }
    /// `org.bluez.Error.NotPermitted: Operation not permitted`: the name, then the message.
    package var what: String { "\(name): \(message)" }
    /// None: a D-Bus error is what a peer said; the module that made the call says what to do about it.
    package var hint: String? { nil }

    package static let failedName = "org.freedesktop.DBus.Error.Failed"
    package static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    /// Not a bus error: the task that waited for the reply was cancelled (`DBusConnection.call`).
    package static let cancelledName = "org.remotetouch.hil.Error.Cancelled"
    package static let disconnectedName = "org.freedesktop.DBus.Error.Disconnected"
    package static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    package static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    package static let unknownObjectName = "org.freedesktop.DBus.Error.UnknownObject"
    package static let unknownInterfaceName = "org.freedesktop.DBus.Error.UnknownInterface"
    package static let unknownPropertyName = "org.freedesktop.DBus.Error.UnknownProperty"
    package static let propertyReadOnlyName = "org.freedesktop.DBus.Error.PropertyReadOnly"

    static func failed(_ message: String) -> DBusError { DBusError(name: failedName, message: message) }
    static func invalidArgs(_ message: String) -> DBusError { DBusError(name: invalidArgsName, message: message) }
}
