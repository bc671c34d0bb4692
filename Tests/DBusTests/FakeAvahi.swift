import Avahi
import DBus
import HILTestSupport

/// An avahi-daemon stand-in on a private bus: the Server's state and `StateChanged`, and entry groups that a `Commit`
/// makes registering and then, unless the test says otherwise, established (`StateChanged` 2), as avahi-daemon's
/// probing ends.
final class FakeAvahi: Sendable {
    let connection: DBusConnection
    let state = Locked<Int32>(Avahi.ServerState.registering.rawValue)
    let groupState = Locked<Int32>(Avahi.GroupState.uncommitted.rawValue)
    /// Whether a committed group is established (its probing over) right after `Commit`, or stays registering.
    let establishes = Locked(true)
    static let group = "/Client1/EntryGroup1"
    /// The arguments of every `AddService` call: interface, protocol, flags, name, type, domain, host, port, TXT.
    let added = Locked<[[DBusValue]]>([])

    init(_ daemon: PrivateBus) async throws {
        connection = try await daemon.connect()
        try await connection.requestName(Avahi.service)
        let (state, groupState, establishes, connection, added) = (state, groupState, establishes, connection, added)
        try await connection.export(Avahi.serverPath, [
            DBusInterface(Avahi.server, methods: [
                DBusMethod("GetState", out: "i", .immediate { _ in [.int32(state.value)] }),
                DBusMethod("EntryGroupNew", out: "o", .async { _ throws(DBusError) in
                    try await connection.export(Self.group, [
                        DBusInterface(Avahi.entryGroup, methods: [
                            DBusMethod("AddService", in: "iiussssqaay", .immediate { call in
                                added.value.append(call.body)
                                return []
                            }),
                            DBusMethod("Commit", .immediate { _ in
                                groupState.value = Avahi.GroupState.registering.rawValue
                                if establishes.value { Task { [weak self] in try await self?.groupState(.established) } }
                                return []
                            }),
                            DBusMethod("GetState", out: "i", .immediate { _ in [.int32(groupState.value)] }),
                            DBusMethod("Free", .immediate { _ in [] }),
                        ])
                    ])
                    return [.objectPath(Self.group)]
                }),
            ])
        ])
    }

    /// The server's state changes, as avahi-daemon announces it.
    func serverState(_ new: Avahi.ServerState) async throws {
        state.value = new.rawValue
        try await connection.emitSignal(path: Avahi.serverPath, interface: Avahi.server, member: "StateChanged", [.int32(new.rawValue), .string("")])
    }

    /// The entry group's state changes (probing over).
    func groupState(_ new: Avahi.GroupState) async throws {
        groupState.value = new.rawValue
        try await connection.emitSignal(path: Self.group, interface: Avahi.entryGroup, member: "StateChanged", [.int32(new.rawValue), .string("")])
    }
}
