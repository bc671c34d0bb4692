import Waiting

extension DBusConnection {
    /// Waits for what a peer signals: subscribes to `rules`, runs `check` once the matches are in place (so a change
    /// that came before is not missed; this first check runs even when `timeout` is already over), then again at each
    /// signal that matches, until `check` finds what is awaited. Nothing is polled: between signals the wait sleeps
    /// on the stream.
    ///
    /// - Parameters:
    ///   - what: what is awaited, for the timeout's message ("no <what> within <timeout>").
    ///   - timeout: how long it may take.
    ///   - rules: the signals that announce a change (`PropertiesChanged`, `InterfacesAdded`, `StateChanged`…).
    ///   - check: nil first, then each signal; returns the value once it is there (reading the signal, or asking the
    ///     peer again), nil before.
    /// - Returns: the first value `check` returned.
    /// - Throws: `WaitTimeout` "no `what` within `timeout`", `CancellationError` when the task is cancelled,
    ///   `DBusError` when the signals cannot be subscribed to or the connection closes, or what `check` throws.
    package func until<Value: Sendable>(
        _ what: String, timeout: Duration, signalledBy rules: [DBusMatchRule],
        _ check: @escaping @Sendable (DBusMessage?) async throws -> Value?
    ) async throws -> Value {
        do {
            let (signals, subscription) = try await subscribe(rules)
            defer { subscription.finish() }
            if let value = try await check(nil) { return value }
            return try await Wait.within(timeout, for: what) {
                for await signal in signals {
                    if let value = try await check(signal) { return value }
                }
                try Task.checkCancellation()
                throw DBusError(name: DBusError.disconnectedName, message: "the connection closed while waiting for \(what)")
            }
        } catch let error as DBusError where error.name == DBusError.cancelledName {
            // Cancelled while a call of the wait's own (AddMatch, the first check's) was in flight: the task's
            // cancellation, as the wait promises, not a bus error.
            throw CancellationError()
        }
    }
}

extension DBusMessage {
    /// A `PropertiesChanged` signal's new value of `property` of `interface`, nil when the signal does not carry it
    /// (another interface, another property, or only invalidated).
    package func changed(_ property: String, of interface: String) -> DBusValue? {
        guard member == "PropertiesChanged", body.count > 1, body[0].stringValue == interface else { return nil }
        return body[1].dictionaryValue?[property]?.unwrapped
    }
}

extension DBusMatchRule {
    /// `PropertiesChanged` of `interface`'s properties on the object at `path` (or below `pathNamespace`).
    package static func propertiesChanged(sender: String, path: String? = nil, pathNamespace: String? = nil, of interface: String)
        -> DBusMatchRule
    {
        DBusMatchRule(sender: sender, path: path, pathNamespace: pathNamespace, interface: "org.freedesktop.DBus.Properties",
                      member: "PropertiesChanged", arg0: interface)
    }

    /// The object manager's `InterfacesAdded` (BlueZ's at `/`): an object appeared, such as an adapter, a device, a
    /// characteristic.
    package static func interfacesAdded(sender: String, manager: String = "/") -> DBusMatchRule {
        DBusMatchRule(sender: sender, path: manager, interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded")
    }

    /// The bus's `NameOwnerChanged` for `name`: its owner came, went or changed (a daemon started or restarted).
    package static func nameOwnerChanged(_ name: String) -> DBusMatchRule {
        DBusMatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: name)
    }
}
