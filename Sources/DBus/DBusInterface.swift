/// A method call delivered to an exported object.
package struct DBusMethodCall: Sendable {
    package var message: DBusMessage
    package var body: [DBusValue] { message.body }
    /// The caller's unique bus name (`:1.42`).
    package var sender: String? { message.sender }
    package var path: String { message.path ?? "/" }
}

/// How an exported method runs. File descriptors a handler returns (`AcquireWrite`'s `h`) are handed over:
/// the connection closes them once the reply is sent.
package enum DBusMethodHandler: Sendable {
    /// Runs on the connection's thread, before the next message is read: for quick work only (a write to a
    /// uinput device, a property read). Never block or await in it: bluetoothd calls back into the
    /// application while it registers it.
    case immediate(@Sendable (DBusMethodCall) throws(DBusError) -> [DBusValue])
    /// Runs in a task; the reply is sent when it finishes.
    case async(@Sendable (DBusMethodCall) async throws(DBusError) -> [DBusValue])
}

package struct DBusMethod: Sendable {
    package var name: String
    /// Signature of the arguments; a call with another signature gets `InvalidArgs`.
    package var inSignature: String
    package var outSignature: String
    package var handler: DBusMethodHandler

    package init(_ name: String, in inSignature: String = "", out outSignature: String = "", _ handler: DBusMethodHandler) {
        self.name = name
        self.inSignature = inSignature
        self.outSignature = outSignature
        self.handler = handler
    }
}

package struct DBusProperty: Sendable {
    package var name: String
    package var signature: String
    /// Called on the connection's thread: read thread-safe state only.
    package var get: @Sendable () -> DBusValue
    /// nil for a read-only property.
    package var set: (@Sendable (DBusValue) throws(DBusError) -> Void)?

    package init(_ name: String, _ signature: String, get: @escaping @Sendable () -> DBusValue,
                set: (@Sendable (DBusValue) throws(DBusError) -> Void)? = nil)
    {
        self.name = name
        self.signature = signature
        self.get = get
        self.set = set
    }
}

package struct DBusSignalDescription: Sendable {
    package var name: String
    package var signature: String

    package init(_ name: String, _ signature: String = "") {
        self.name = name
        self.signature = signature
    }
}

/// One interface of an exported object: its methods, properties and signals.
package struct DBusInterface: Sendable {
    package var name: String
    package var methods: [DBusMethod]
    package var properties: [DBusProperty]
    package var signals: [DBusSignalDescription]

    package init(_ name: String, methods: [DBusMethod] = [], properties: [DBusProperty] = [],
                signals: [DBusSignalDescription] = [])
    {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    /// `a{sv}` of every property, as `GetAll` and `GetManagedObjects` return them.
    package var allProperties: DBusValue {
        .properties(properties.map { ($0.name, $0.get()) })
    }
}

/// Which signals a subscription receives: the fields that are set must match.
package struct DBusMatchRule: Sendable, Hashable {
    package var sender: String?
    package var path: String?
    /// Matches the path and everything below it.
    package var pathNamespace: String?
    package var interface: String?
    package var member: String?
    /// The first argument, when it is a string (e.g. NameOwnerChanged's name).
    package var arg0: String?

    package init(sender: String? = nil, path: String? = nil, pathNamespace: String? = nil, interface: String? = nil,
                member: String? = nil, arg0: String? = nil)
    {
        self.sender = sender
        self.path = path
        self.pathNamespace = pathNamespace
        self.interface = interface
        self.member = member
        self.arg0 = arg0
    }

    /// The rule text for `AddMatch`: `type='signal',interface='…',…`.
    package var text: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let path { parts.append("path='\(path)'") }
        if let pathNamespace { parts.append("path_namespace='\(pathNamespace)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        if let arg0 { parts.append("arg0='\(arg0)'") }
        return parts.joined(separator: ",")
    }

    /// Whether a received signal matches. Signals carry the sender's unique name, so a well-known `sender`
    /// (`org.bluez`) is left to the bus, which filters by it for `AddMatch`; locally only unique names compare.
    package func matches(_ message: DBusMessage) -> Bool {
        guard message.kind == .signal else { return false }
        if let sender, sender.hasPrefix(":"), message.sender != sender { return false }
        if let path, message.path != path { return false }
        if let pathNamespace, let messagePath = message.path,
            !(messagePath == pathNamespace || messagePath.hasPrefix(pathNamespace == "/" ? "/" : pathNamespace + "/"))
        {
            return false
        }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let arg0, message.body.first?.stringValue != arg0 { return false }
        return true
    }
}
