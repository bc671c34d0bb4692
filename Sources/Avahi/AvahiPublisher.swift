package import DBus
import Synchronization
import Waiting

/// Publishes one service through avahi-daemon (`EntryGroupNew`, `AddService` with TXT records, `Commit`) and keeps
/// it published: when avahi-daemon restarts (its bus name gets a new owner) or the group reports a name
/// collision, it publishes again (under avahi's alternative name after a collision). `stop` frees the group.
package final class AvahiPublisher: Sendable {
    package struct Service: Sendable {
        package var name: String
        package var type: String
        package var port: UInt16
        package var txt: [String]
        package init(name: String, type: String, port: UInt16, txt: [String]) {
            self.name = name
            self.type = type
            self.port = port
            self.txt = txt
        }
    }

    private let connection: DBusConnection
    private let log: @Sendable (String) -> Void
    private let state: Mutex<(service: Service, group: String?, watcher: Task<Void, Never>?)>

    package init(connection: DBusConnection, service: Service, log: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.log = log
        state = Mutex((service, nil, nil))
    }

    /// The name published now (avahi's alternative after a collision).
    package var publishedName: String { state.withLock { $0.service.name } }

    /// Publishes and waits until avahi says the group is established; then keeps it published.
    package func start(timeout: Duration = .seconds(15)) async throws(AvahiError) {
        let owners: AsyncStream<DBusMessage>
        do {
            owners = try await connection.signals(DBusMatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: Avahi.service))
        } catch {
            throw AvahiError(.bus, "cannot watch avahi-daemon on the bus: \(error)", cause: error)
        }
        try await Avahi.waitUntilRunning(on: connection, timeout: timeout)
        try await publish(timeout: timeout)
        let watcher = Task { [self] in
            for await change in owners {
                guard change.body.count == 3, let owner = change.body[2].stringValue else { continue }
                state.withLock { $0.group = nil }
                guard !owner.isEmpty else {
                    log("avahi-daemon went away; the service is published again when it is back")
                    continue
                }
                do {
                    try await Avahi.waitUntilRunning(on: connection, timeout: timeout)
                    try await publish(timeout: timeout)
                    log("avahi-daemon restarted: published \"\(publishedName)\" again")
                } catch {
                    log("avahi-daemon restarted but publishing again failed: \(error)")
                }
            }
        }
        state.withLock { $0.watcher = watcher }
    }

    /// Frees the entry group: the service is withdrawn (goodbye packets).
    package func stop() async {
        let (group, watcher) = state.withLock { state in
            defer { state.group = nil; state.watcher = nil }
            return (state.group, state.watcher)
        }
        watcher?.cancel()
        if let group {
            _ = try? await Avahi.call(connection, path: group, interface: Avahi.entryGroup, member: "Free", what: "freeing the entry group")
        }
    }

    private func publish(timeout: Duration) async throws(AvahiError) {
        for _ in 1...5 {
            let service = state.withLock { $0.service }
            let reply = try await Avahi.call(connection, path: Avahi.serverPath, interface: Avahi.server, member: "EntryGroupNew",
                                             what: "creating an entry group")
            guard let group = reply.first?.stringValue else { throw AvahiError(.unexpectedReply, "EntryGroupNew returned no object path") }
            state.withLock { $0.group = group }
            let txt = DBusValue.array(elementSignature: "ay", service.txt.map { .bytes(Array($0.utf8)) })
            _ = try await Avahi.call(connection, path: group, interface: Avahi.entryGroup, member: "AddService", [
                .int32(Avahi.anyInterface), .int32(Avahi.inet), .uint32(0), .string(service.name), .string(service.type),
                .string(""), .string(""), .uint16(service.port), txt,
            ], what: "adding the service \"\(service.name)\" \(service.type)")
            _ = try await Avahi.call(connection, path: group, interface: Avahi.entryGroup, member: "Commit", what: "committing the entry group")
            switch try await waitForGroup(group, timeout: timeout) {
            case .established:
                return
            case .collision:
                let alternative = try await Avahi.call(connection, path: Avahi.serverPath, interface: Avahi.server,
                                                       member: "GetAlternativeServiceName", [.string(service.name)],
                                                       what: "asking for an alternative service name")
                _ = try? await Avahi.call(connection, path: group, interface: Avahi.entryGroup, member: "Free", what: "freeing the entry group")
                let renamed = alternative.first?.stringValue ?? service.name + " #2"
                log("the service name \"\(service.name)\" is taken on this network: publishing as \"\(renamed)\"")
                state.withLock { $0.service.name = renamed }
            default:
                throw AvahiError(.daemonFailure, "avahi-daemon failed to publish \"\(service.name)\" \(service.type)", hint: "its log says why")
            }
        }
        throw AvahiError(.collision, "every name tried for the service collided")
    }

    /// Waits for the entry group's `StateChanged` to leave registering (avahi-daemon probing the name).
    private func waitForGroup(_ group: String, timeout: Duration) async throws(AvahiError) -> Avahi.GroupState {
        let connection = connection
        do {
            return try await connection.until("established entry group", timeout: timeout, signalledBy: [
                DBusMatchRule(sender: Avahi.service, path: group, interface: Avahi.entryGroup, member: "StateChanged")
            ]) { signal -> Avahi.GroupState? in
                let value: Avahi.GroupState
                if let signal {
                    value = signal.body.first?.integerValue.flatMap { Avahi.GroupState(rawValue: Int32(truncatingIfNeeded: $0)) } ?? .failure
                } else {
                    let reply = try await Avahi.call(connection, path: group, interface: Avahi.entryGroup, member: "GetState",
                                                     what: "reading the entry group's state")
                    value = reply.first?.integerValue.flatMap { Avahi.GroupState(rawValue: Int32(truncatingIfNeeded: $0)) } ?? .failure
                }
                return value != .registering && value != .uncommitted ? value : nil
            }
        } catch let error as AvahiError {
            throw error
        } catch is WaitTimeout {
            throw AvahiError(.timeout, "the service was not established within \(timeout) (avahi-daemon still probing)")
        } catch {
            throw AvahiError(error is CancellationError ? .interrupted : .bus, "waiting for the entry group \(group): \(error is CancellationError ? "cancelled" : "\(error)")")
        }
    }
}
