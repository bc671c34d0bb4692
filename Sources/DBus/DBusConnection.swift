import Foundation

/// A connection to a D-Bus bus, owned by one thread (see `DBusLoop`).
///
/// Calls are async and never block that thread, so bluetoothd can call back into exported objects while a
/// `RegisterApplication` call is waiting for its reply. The connection does not exit the process when the
/// bus goes away; `onDisconnect` says so instead.
package final class DBusConnection: Sendable {
    package enum Bus: Sendable, CustomStringConvertible {
        case system
        case session
        /// A bus address such as `unix:path=/run/dbus/system_bus_socket`.
        case address(String)

        package var description: String {
            switch self {
            case .system: "system"
            case .session: "session"
            case .address(let address): address
            }
        }
    }

    /// Our unique name on the bus (`:1.42`).
    package let uniqueName: String
    private let loop: DBusLoop

    private init(loop: DBusLoop, uniqueName: String) {
        self.loop = loop
        self.uniqueName = uniqueName
    }

    /// Connects and registers on the bus.
    /// - Throws: `DBusError` with the bus's error name (e.g. `org.freedesktop.DBus.Error.FileNotFound` when no
    ///   bus listens at the address).
    package static func connect(_ bus: Bus) async throws(DBusError) -> DBusConnection {
        let loop = DBusLoop()
        let name = try await loop.start(bus)
        return DBusConnection(loop: loop, uniqueName: name)
    }

    deinit {
        loop.enqueue { $0.shutDown(reason: "the connection was closed") }
    }

    /// Closes the connection: waiting calls fail with `Disconnected`, subscriptions end.
    package func close() {
        loop.enqueue { $0.shutDown(reason: "the connection was closed") }
    }

    package var isConnected: Bool { !loop.isStopped }

    /// Calls `handler` (on the connection's thread) once when the connection is lost or closed.
    package func onDisconnect(_ handler: @escaping @Sendable (String) -> Void) {
        loop.enqueue { $0.onDisconnect(handler) }
    }

    // MARK: Calls and signals

    /// Calls a method and waits for its reply.
    /// - Returns: the reply's values.
    /// - Throws: `DBusError` with the error reply's name (`org.bluez.Error.InProgress`…), `NoReply` after
    ///   `timeout`, `Disconnected`, or `InvalidArgs` when the call cannot be marshalled.
    package func call(destination: String, path: String, interface: String, member: String, _ body: [DBusValue] = [],
                     timeout: Duration = .seconds(25)) async throws(DBusError) -> [DBusValue]
    {
        let message = DBusMessage(
            kind: .methodCall, path: path, interface: interface, member: member, destination: destination, body: body)
        let what = "\(interface).\(member) on \(destination) \(path)"
        guard !loop.isStopped else { throw DBusError(name: DBusError.disconnectedName, message: "cannot call \(what): the connection is closed") }
        // A cancelled task stops waiting at once (Ctrl-C during a Connect to a computer that was just stopped); the
        // reply, if one comes, is dropped. The call itself is not taken back: the bus has it.
        let call = PendingCall(what: what)
        let result: Result<DBusMessage, DBusError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                loop.enqueue { loop in
                    guard !call.isCancelled else { return continuation.resume(returning: .failure(call.cancelled)) }
                    switch loop.send(message) {
                    case .success(let serial):
                        call.sent(serial)
                        loop.awaitReply(to: serial, timeout: timeout, what: what, continuation)
                    case .failure(let error): continuation.resume(returning: .failure(error))
                    }
                }
            }
        } onCancel: {
            call.cancel()
            loop.enqueue { loop in loop.abandonReply(to: call.serial, with: call.cancelled) }
        }
        return try result.get().body
    }

    /// Sends a message without waiting (a signal, or a call whose reply does not matter).
    package func send(_ message: DBusMessage) async throws(DBusError) {
        _ = try await loop.perform { loop in loop.send(message).map { _ in () } }
    }

    /// Emits a signal from one of our objects.
    package func emitSignal(path: String, interface: String, member: String, _ body: [DBusValue] = [])
        async throws(DBusError)
    {
        try await send(DBusMessage(kind: .signal, path: path, interface: interface, member: member, body: body))
    }

    /// Signals matching `rule`, until the stream is dropped (which removes the match) or the connection closes.
    /// The match is in place on the bus when this returns.
    package func signals(_ rule: DBusMatchRule) async throws(DBusError) -> AsyncStream<DBusMessage> {
        try await subscribe([rule]).stream
    }

    /// Signals matching any of `rules`, in one stream; the matches are in place on the bus when this returns.
    /// Finishing the continuation (or cancelling the task that iterates the stream) removes them.
    func subscribe(_ rules: [DBusMatchRule]) async throws(DBusError)
        -> (stream: AsyncStream<DBusMessage>, continuation: AsyncStream<DBusMessage>.Continuation)
    {
        let (stream, continuation) = AsyncStream<DBusMessage>.makeStream(bufferingPolicy: .unbounded)
        let ids = try await loop.perform { loop in .success(rules.map { loop.subscribe($0, continuation) }) }
        var added: [DBusMatchRule] = []
        do {
            for rule in rules {
                _ = try await call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    member: "AddMatch", [.string(rule.text)])
                added.append(rule)
            }
        } catch {
            unsubscribe(ids, added)
            throw error
        }
        let matched = added
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(ids, matched) }
        return (stream, continuation)
    }

    private func unsubscribe(_ ids: [Int], _ rules: [DBusMatchRule]) {
        loop.enqueue { loop in ids.forEach(loop.unsubscribe) }
        for rule in rules {
            let removal = DBusMessage(
                kind: .methodCall, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "RemoveMatch",
                destination: "org.freedesktop.DBus", noReplyExpected: true, body: [.string(rule.text)])
            loop.enqueue { _ = $0.send(removal) }
        }
    }

    /// Asks the bus for a well-known name.
    /// - Throws: `DBusError` when the name is taken (`org.freedesktop.DBus.Error.AccessDenied` if policy forbids it).
    package func requestName(_ name: String) async throws(DBusError) {
        // DBUS_NAME_FLAG_DO_NOT_QUEUE = 4; reply 1 = primary owner, 4 = already owner.
        let reply = try await call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName", [.string(name), .uint32(4)])
        let code = reply.first?.integerValue ?? 0
        guard code == 1 || code == 4 else {
            throw DBusError(name: "org.freedesktop.DBus.Error.NameTaken", message: "\(name) is owned by another connection")
        }
    }

    /// Who owns a bus name now, or nil.
    package func nameOwner(_ name: String) async throws(DBusError) -> String? {
        do {
            let reply = try await call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", [.string(name)])
            return reply.first?.stringValue
        } catch where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return nil
        }
    }

    // MARK: Exported objects

    /// Exports an object with its interfaces (replacing what was at `path`). Under an object manager root, its
    /// `InterfacesAdded` signal is emitted.
    package func export(_ path: String, _ interfaces: [DBusInterface]) async throws(DBusError) {
        let signal: DBusMessage? = try await loop.perform { loop in
            guard path.hasPrefix("/") else { return .failure(.invalidArgs("\"\(path)\" is not an object path")) }
            loop.objects.export(path, interfaces)
            guard let root = loop.objects.manager(of: path) else { return .success(nil) }
            return .success(
                DBusMessage(
                    kind: .signal, path: root, interface: DBusObjectTree.objectManager, member: "InterfacesAdded",
                    body: [.objectPath(path), DBusObjectTree.interfacesAndProperties(interfaces)]))
        }
        if let signal { try await send(signal) }
    }

    /// Removes an exported object; under an object manager root, emits `InterfacesRemoved`.
    package func unexport(_ path: String) async throws(DBusError) {
        let signal: DBusMessage? = try await loop.perform { loop in
            let interfaces = loop.objects.objects[path] ?? []
            loop.objects.unexport(path)
            guard !interfaces.isEmpty, let root = loop.objects.manager(of: path) else { return .success(nil) }
            return .success(
                DBusMessage(
                    kind: .signal, path: root, interface: DBusObjectTree.objectManager, member: "InterfacesRemoved",
                    body: [.objectPath(path), .strings(interfaces.map(\.name))]))
        }
        if let signal { try await send(signal) }
    }

    /// Makes `root` answer `org.freedesktop.DBus.ObjectManager.GetManagedObjects` for the objects below it
    /// (what BlueZ reads during `RegisterApplication`).
    package func addObjectManager(at root: String) async throws(DBusError) {
        _ = try await loop.perform { loop in
            loop.objects.addManager(root)
            return .success(())
        }
    }

    /// Emits `PropertiesChanged` for properties of an exported object.
    package func propertiesChanged(path: String, interface: String, _ changed: [(String, DBusValue)],
                                  invalidated: [String] = []) async throws(DBusError)
    {
        try await emitSignal(
            path: path, interface: DBusObjectTree.properties, member: "PropertiesChanged",
            [.string(interface), .properties(changed), .strings(invalidated)])
    }
}
