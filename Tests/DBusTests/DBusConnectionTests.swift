import DBus
import Foundation
import HILTestSupport
import Testing

let bus = "org.freedesktop.DBus"
let busPath = "/org/freedesktop/DBus"

/// Every kind of value BlueZ uses, including empty containers that must keep their type.
private let samples: [DBusValue] = [
    .byte(7), .bool(true), .bool(false), .int16(-3), .uint16(65535), .int32(-70000), .uint32(4_000_000_000),
    .int64(-5_000_000_000), .uint64(18_000_000_000_000_000_000), .double(-1.5), .string("héllo"), .string(""),
    .objectPath("/org/bluez/hci0/dev_00_AA_01_01_00_01"), .signature("a{sv}"),
    .bytes([0x7B, 0x22, 0x00, 0xFF]), .bytes([]),
    .strings(["read", "write-without-response"]), .objectPaths([]),
    .array(elementSignature: "a{sv}", []),
    .properties([("MTU", .uint16(517)), ("device", .objectPath("/org/bluez/hci1/dev_X")), ("link", .string("LE"))]),
    .properties([]),
    .dictionary(
        keySignature: "o", valueSignature: "a{sa{sv}}",
        [DBusDictionaryEntry(
            .objectPath("/hil/service0"),
            .dictionary(keySignature: "s", valueSignature: "a{sv}", [
                DBusDictionaryEntry(.string("org.bluez.GattService1"), .properties([("Primary", .bool(true))]))
            ]))]),
    .structure([.int32(1), .string("x"), .bytes([1, 2])]),
    .variant(.variant(.uint32(5))),
    .array(elementSignature: "(hq)", []),
]

@Suite("D-Bus connection against a real private dbus-daemon", .serialized)
struct DBusConnectionTests {
    @Test("connects, gets a unique name, and the bus lists it")
    func connect() async throws {
        let daemon = try PrivateBus()
        let connection = try await daemon.connect()
        #expect(connection.uniqueName.hasPrefix(":"))
        let names = try await connection.call(destination: bus, path: busPath, interface: bus, member: "ListNames")
        #expect(names.first?.arrayValue?.contains(.string(connection.uniqueName)) == true)
    }

    @Test("no bus at the address: the error names why")
    func noBus() async {
        do {
            _ = try await DBusConnection.connect(.address("unix:path=/nonexistent/hil-bus"))
            Issue.record("connected to nothing")
        } catch {
            #expect(error.name.hasPrefix("org.freedesktop.DBus.Error."))
            #expect(error.message.contains("/nonexistent/hil-bus"))
        }
    }

    @Test("every value round-trips through an exported method, by value and by signature")
    func roundTrip() async throws {
        let daemon = try PrivateBus()
        let server = try await daemon.connect()
        let client = try await daemon.connect()
        try await server.export("/hil/echo", [
            DBusInterface("test.Echo", methods: [
                DBusMethod("Echo", in: "v", out: "v", .immediate { call in call.body }),
                // One level: the value inside the argument's variant (which may itself be a variant).
                DBusMethod("Signature", in: "v", out: "s", .immediate { call in
                    guard case .variant(let inner) = call.body[0] else { return [.string("?")] }
                    return [.string(inner.signature)]
                }),
            ])
        ])
        for value in samples {
            let reply = try await client.call(destination: server.uniqueName, path: "/hil/echo", interface: "test.Echo",
                                              member: "Echo", [.variant(value)])
            #expect(reply == [.variant(value)], "\(value.signature)")
            let signature = try await client.call(destination: server.uniqueName, path: "/hil/echo", interface: "test.Echo",
                                                  member: "Signature", [.variant(value)])
            #expect(signature == [.string(value.signature)])
        }
    }

    @Test("a file descriptor crosses the bus (AcquireWrite's h)")
    func fileDescriptor() async throws {
        let daemon = try PrivateBus()
        let server = try await daemon.connect()
        let client = try await daemon.connect()
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        let (ours, theirs) = (fds[0], fds[1])
        defer { close(ours) }
        try await server.export("/hil/fd", [
            DBusInterface("test.Fd", methods: [
                DBusMethod("Acquire", in: "", out: "hq", .immediate { _ in [.fileDescriptor(theirs), .uint16(517)] })
            ])
        ])
        // The handler hands `theirs` over: the connection closes it after the reply is sent. (Compared by
        // identity: other tests running in parallel may reuse the number at once.)
        var before = stat()
        #expect(fstat(theirs, &before) == 0)
        let reply = try await client.call(destination: server.uniqueName, path: "/hil/fd", interface: "test.Fd", member: "Acquire")
        // libdbus may write the reply before the server thread reaches its close, so allow it a moment. The
        // received descriptor (same process here) may take the freed number: then it was closed first.
        let received = reply.first.flatMap { value -> Int32? in if case .fileDescriptor(let fd) = value { fd } else { nil } }
        var closed = received == theirs
        let deadline = ContinuousClock.now + .seconds(2)
        while !closed && ContinuousClock.now < deadline {
            var after = stat()
            closed = fstat(theirs, &after) != 0 || after.st_ino != before.st_ino || after.st_dev != before.st_dev
            if !closed { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(closed, "the connection should have closed the returned descriptor")
        guard case .fileDescriptor(let received) = try #require(reply.first) else {
            Issue.record("no fd in \(reply)")
            return
        }
        defer { close(received) }
        #expect(reply.last == .uint16(517))
        let payload: [UInt8] = Array(#"{"tap":{"type":"single"}}"#.utf8)
        #expect(write(received, payload, payload.count) == payload.count)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(ours, &buffer, buffer.count)
        #expect(Array(buffer.prefix(max(count, 0))) == payload)
    }

    @Test("error replies keep their D-Bus name; unknown object, interface, method and bad arguments are named")
    func errors() async throws {
        let daemon = try PrivateBus()
        let server = try await daemon.connect()
        let client = try await daemon.connect()
        try await server.export("/hil/char", [
            DBusInterface("org.bluez.GattCharacteristic1", methods: [
                DBusMethod("WriteValue", in: "aya{sv}", .immediate { _ throws(DBusError) in
                    throw DBusError(name: "org.bluez.Error.NotPermitted", message: "pair first")
                })
            ])
        ])
        func expectError(_ name: String, _ message: String, path: String = "/hil/char", interface: String = "org.bluez.GattCharacteristic1",
                         member: String = "WriteValue", _ body: [DBusValue] = [.bytes([1]), .properties([])]) async
        {
            do {
                _ = try await client.call(destination: server.uniqueName, path: path, interface: interface, member: member, body)
                Issue.record("no error for \(member)")
            } catch {
                #expect(error.name == name)
                #expect(error.message.contains(message), "\(error)")
            }
        }
        await expectError("org.bluez.Error.NotPermitted", "pair first")
        await expectError(DBusError.unknownObjectName, "no object at /hil/nothing", path: "/hil/nothing")
        await expectError(DBusError.unknownInterfaceName, "has no interface org.bluez.Nope", interface: "org.bluez.Nope")
        await expectError(DBusError.unknownMethodName, "has no method org.bluez.GattCharacteristic1.ReadValue", member: "ReadValue")
        await expectError(DBusError.invalidArgsName, "WriteValue takes (aya{sv}), was called with (s)", [.string("x")])
    }

    @Test("values that cannot be marshalled are refused before anything is sent")
    func marshallingErrors() async throws {
        let daemon = try PrivateBus()
        let client = try await daemon.connect()
        for (body, message) in [
            ([DBusValue.objectPath("no-slash")], "is not a valid D-Bus object path"),
            ([.array(elementSignature: "s", [.string("a"), .int32(1)])], "an array of s holds a i"),
            ([.dictionary(keySignature: "s", valueSignature: "v", [DBusDictionaryEntry(.int32(1), .variant(.bool(true)))])], "holds {iv}"),
            ([.structure([])], "needs at least one member"),
            ([.string("nul\u{0}inside")], "cannot contain NUL"),
        ] {
            do {
                _ = try await client.call(destination: bus, path: busPath, interface: bus, member: "GetId", body)
                Issue.record("sent \(body)")
            } catch {
                #expect(error.name == DBusError.invalidArgsName)
                #expect(error.message.contains(message), "\(error)")
            }
        }
        do {
            _ = try await client.call(destination: bus, path: "bad path", interface: bus, member: "GetId")
            Issue.record("sent to a bad path")
        } catch {
            #expect(error.message.contains("\"bad path\" is not a valid D-Bus object path"))
        }
    }

    @Test("properties: Get, GetAll, Set, read-only refused, PropertiesChanged delivered")
    func properties() async throws {
        let daemon = try PrivateBus()
        let server = try await daemon.connect()
        let client = try await daemon.connect()
        let notifying = Locked(false)
        try await server.export("/hil/char", [
            DBusInterface("org.bluez.GattCharacteristic1", properties: [
                DBusProperty("UUID", "s", get: { .string("12345678-1234-1234-1234-123456789abe") }),
                DBusProperty("Notifying", "b", get: { .bool(notifying.value) }, set: { value in notifying.value = value.boolValue ?? false }),
            ])
        ])
        let props = "org.freedesktop.DBus.Properties"
        let uuid = try await client.call(destination: server.uniqueName, path: "/hil/char", interface: props, member: "Get",
                                         [.string("org.bluez.GattCharacteristic1"), .string("UUID")])
        #expect(uuid == [.variant(.string("12345678-1234-1234-1234-123456789abe"))])
        _ = try await client.call(destination: server.uniqueName, path: "/hil/char", interface: props, member: "Set",
                                  [.string("org.bluez.GattCharacteristic1"), .string("Notifying"), .variant(.bool(true))])
        let all = try await client.call(destination: server.uniqueName, path: "/hil/char", interface: props, member: "GetAll",
                                        [.string("org.bluez.GattCharacteristic1")])
        #expect(all.first?.dictionaryValue?["Notifying"] == .variant(.bool(true)))
        do {
            _ = try await client.call(destination: server.uniqueName, path: "/hil/char", interface: props, member: "Set",
                                      [.string("org.bluez.GattCharacteristic1"), .string("UUID"), .variant(.string("x"))])
            Issue.record("set a read-only property")
        } catch {
            #expect(error.name == DBusError.propertyReadOnlyName)
        }
        let changes = try await client.signals(DBusMatchRule(path: "/hil/char", interface: props, member: "PropertiesChanged"))
        try await server.propertiesChanged(path: "/hil/char", interface: "org.bluez.GattCharacteristic1", [("Value", .bytes([1, 2]))])
        let signal = try await first(changes)
        #expect(signal.body == [.string("org.bluez.GattCharacteristic1"), .properties([("Value", .bytes([1, 2]))]), .strings([])])
        #expect(signal.sender == server.uniqueName)
    }

    @Test("object manager: GetManagedObjects lists the tree; export and unexport signal it; Introspect shows it")
    func objectManager() async throws {
        let daemon = try PrivateBus()
        let server = try await daemon.connect()
        let client = try await daemon.connect()
        try await server.addObjectManager(at: "/hil")
        let added = try await client.signals(DBusMatchRule(interface: "org.freedesktop.DBus.ObjectManager"))
        let service = DBusInterface("org.bluez.GattService1", properties: [
            DBusProperty("UUID", "s", get: { .string("12345678-1234-1234-1234-123456789abc") }),
            DBusProperty("Primary", "b", get: { .bool(true) }),
        ])
        try await server.export("/hil/service0", [service])
        let addedSignal = try await first(added)
        #expect(addedSignal.member == "InterfacesAdded")
        #expect(addedSignal.body.first == .objectPath("/hil/service0"))
        let managed = try await client.call(destination: server.uniqueName, path: "/hil", interface: "org.freedesktop.DBus.ObjectManager",
                                            member: "GetManagedObjects")
        let objects = try #require(managed.first?.dictionaryValue)
        #expect(Array(objects.keys) == ["/hil/service0"])
        #expect(objects["/hil/service0"]?.dictionaryValue?["org.bluez.GattService1"]?.dictionaryValue?["Primary"] == .variant(.bool(true)))
        let rootXML = try await client.call(destination: server.uniqueName, path: "/", interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
        #expect(rootXML.first?.stringValue?.contains("<node name=\"hil\"/>") == true)
        let xml = try await client.call(destination: server.uniqueName, path: "/hil/service0", interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
        #expect(xml.first?.stringValue?.contains("<property name=\"Primary\" type=\"b\" access=\"read\"/>") == true)
        try await server.unexport("/hil/service0")
        var removed: DBusMessage?
        for await signal in added where signal.member == "InterfacesRemoved" {
            removed = signal
            break
        }
        #expect(removed?.body == [.objectPath("/hil/service0"), .strings(["org.bluez.GattService1"])])
    }

    @Test("a call made while we wait for a reply is served: no deadlock (RegisterApplication → GetManagedObjects)")
    func reentrancy() async throws {
        let daemon = try PrivateBus()
        let application = try await daemon.connect()
        let manager = try await daemon.connect()
        try await application.addObjectManager(at: "/app")
        try await application.export("/app/service0", [DBusInterface("org.bluez.GattService1", properties: [
            DBusProperty("UUID", "s", get: { .string("12345678-1234-1234-1234-123456789abc") })
        ])])
        let managerName = manager.uniqueName
        try await manager.export("/org/bluez/hci0", [DBusInterface("org.bluez.GattManager1", methods: [
            DBusMethod("RegisterApplication", in: "oa{sv}", .async { call throws(DBusError) in
                // As bluetoothd does: read the application's objects before replying.
                guard let owner = call.sender, let root = call.body.first?.stringValue else { throw DBusError(name: "test.Bad", message: "no sender") }
                let objects = try await manager.call(destination: owner, path: root, interface: "org.freedesktop.DBus.ObjectManager",
                                                     member: "GetManagedObjects")
                guard objects.first?.dictionaryValue?["/app/service0"] != nil else { throw DBusError(name: "test.Empty", message: "no service") }
                return []
            })
        ])])
        let reply = try await application.call(destination: managerName, path: "/org/bluez/hci0", interface: "org.bluez.GattManager1",
                                               member: "RegisterApplication", [.objectPath("/app"), .properties([])], timeout: .seconds(5))
        #expect(reply == [])
    }

    @Test("no reply in time: NoReply, and the connection keeps working")
    func timeout() async throws {
        let daemon = try PrivateBus()
        let server = try await daemon.connect()
        let client = try await daemon.connect()
        try await server.export("/hil/slow", [DBusInterface("test.Slow", methods: [
            DBusMethod("Sleep", .async { _ in
                try? await Task.sleep(for: longWait)
                return []
            })
        ])])
        let start = ContinuousClock.now
        do {
            _ = try await client.call(destination: server.uniqueName, path: "/hil/slow", interface: "test.Slow", member: "Sleep",
                                      timeout: .milliseconds(200))
            Issue.record("no timeout")
        } catch {
            #expect(error.name == DBusError.noReplyName)
            #expect(error.message.contains("test.Slow.Sleep"))
        }
        #expect(ContinuousClock.now - start < promptly)
        let id = try await client.call(destination: bus, path: busPath, interface: bus, member: "GetId")
        #expect(id.first?.stringValue?.count == 32)
    }

    @Test("NameOwnerChanged for a name is seen, filtered by arg0; a name can be requested once")
    func nameOwnerChanged() async throws {
        let daemon = try PrivateBus()
        let watcher = try await daemon.connect()
        let changes = try await watcher.signals(DBusMatchRule(sender: bus, interface: bus, member: "NameOwnerChanged", arg0: "org.bluez"))
        #expect(try await watcher.nameOwner("org.bluez") == nil)
        let fakeBlueZ = try await daemon.connect()
        try await fakeBlueZ.requestName("org.bluez")
        let appeared = try await first(changes)
        #expect(appeared.body == [.string("org.bluez"), .string(""), .string(fakeBlueZ.uniqueName)])
        #expect(try await watcher.nameOwner("org.bluez") == fakeBlueZ.uniqueName)
        let rival = try await daemon.connect()
        await #expect(throws: DBusError.self) { try await rival.requestName("org.bluez") }
        fakeBlueZ.close()
        let gone = try await first(changes)
        #expect(gone.body == [.string("org.bluez"), .string(fakeBlueZ.uniqueName), .string("")])
    }

    @Test("the bus dying is reported, not fatal: calls fail with Disconnected, the process lives on")
    func busDies() async throws {
        let daemon = try PrivateBus()
        let connection = try await daemon.connect()
        let lost = Locked<String?>(nil)
        connection.onDisconnect { reason in lost.value = reason }
        daemon.kill()
        let deadline = ContinuousClock.now + .seconds(5)
        while connection.isConnected && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!connection.isConnected)
        #expect(lost.value != nil)
        do {
            _ = try await connection.call(destination: bus, path: busPath, interface: bus, member: "GetId")
            Issue.record("called a dead bus")
        } catch {
            #expect(error.name == DBusError.disconnectedName)
        }
    }
}

/// The next message of a stream, or a failure after 5 s.
func first(_ stream: AsyncStream<DBusMessage>) async throws -> DBusMessage {
    try await withThrowingTaskGroup(of: DBusMessage?.self) { group in
        group.addTask {
            for await message in stream { return message }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: .seconds(5))
            return nil
        }
        let result = try await group.next() ?? nil
        group.cancelAll()
        guard let result else { throw DBusError(name: "test.Timeout", message: "no signal within 5 s") }
        return result
    }
}
