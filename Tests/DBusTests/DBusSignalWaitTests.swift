import DBus
import Foundation
import HILTestSupport
import Testing
import Waiting

private let props = "org.freedesktop.DBus.Properties"
private let adapter = "org.bluez.Adapter1"

/// A fake adapter on a private bus whose `Powered` property the test flips, emitting `PropertiesChanged` as
/// bluetoothd does.
private struct FakeAdapter {
    let server: DBusConnection
    let client: DBusConnection
    let powered = Locked(false)

    init(_ daemon: PrivateBus) async throws {
        server = try await daemon.connect()
        client = try await daemon.connect()
        let powered = powered
        try await server.export("/org/bluez/hci0", [
            DBusInterface(adapter, properties: [DBusProperty("Powered", "b", get: { .bool(powered.value) })])
        ])
    }

    func power(_ on: Bool) async throws {
        powered.value = on
        try await server.propertiesChanged(path: "/org/bluez/hci0", interface: adapter, [("Powered", .bool(on))])
    }

    var rule: DBusMatchRule { DBusMatchRule(path: "/org/bluez/hci0", interface: props, member: "PropertiesChanged", arg0: adapter) }

    /// Waits for Powered = true: read once, then from each signal.
    func untilPowered(timeout: Duration) async throws -> Bool {
        let (client, server) = (client, server)
        return try await client.until("Powered = true on hci0", timeout: timeout, signalledBy: [rule]) { signal in
            if let signal { return signal.changed("Powered", of: adapter)?.boolValue == true ? true : nil }
            let reply = try await client.call(destination: server.uniqueName, path: "/org/bluez/hci0", interface: props, member: "Get",
                                              [.string(adapter), .string("Powered")])
            return reply.first?.unwrapped.boolValue == true ? true : nil
        }
    }
}

@Suite("Waiting on D-Bus signals with a named timeout, against a real private dbus-daemon", .serialized)
struct DBusSignalWaitTests {
    @Test("returns when the signal comes, long before the timeout")
    func signalled() async throws {
        let daemon = try PrivateBus()
        let fake = try await FakeAdapter(daemon)
        let start = ContinuousClock.now
        Task {
            try await Task.sleep(for: .milliseconds(50))
            try await fake.power(true)
        }
        #expect(try await fake.untilPowered(timeout: longWait))
        #expect(ContinuousClock.now - start < promptly)
    }

    @Test("a state reached before the wait is read at once, without a signal")
    func alreadyThere() async throws {
        let daemon = try PrivateBus()
        let fake = try await FakeAdapter(daemon)
        fake.powered.value = true
        #expect(try await fake.untilPowered(timeout: longWait))
    }

    @Test("times out with a message that names what was awaited and for how long; other signals do not end it")
    func timesOut() async throws {
        let daemon = try PrivateBus()
        let fake = try await FakeAdapter(daemon)
        Task { try await fake.server.propertiesChanged(path: "/org/bluez/hci0", interface: adapter, [("Discovering", .bool(true))]) }
        let error = await #expect(throws: WaitTimeout.self) { _ = try await fake.untilPowered(timeout: .milliseconds(200)) }
        #expect(error?.description == "no Powered = true on hci0 within 0.2 seconds")
    }

    @Test("a cancelled task ends the wait at once with CancellationError")
    func cancelled() async throws {
        let daemon = try PrivateBus()
        let fake = try await FakeAdapter(daemon)
        await expectEndsWhenCancelled(after: .milliseconds(50)) { try await fake.untilPowered(timeout: longWait) }
    }

    @Test("cancelled while the wait's own calls are in flight (AddMatch, the first check), it still ends with CancellationError")
    func cancelledAtOnce() async throws {
        let daemon = try PrivateBus()
        let fake = try await FakeAdapter(daemon)
        for _ in 0..<20 { await expectEndsWhenCancelled(after: .zero) { try await fake.untilPowered(timeout: longWait) } }
    }

    @Test("the match is removed from the bus once the wait is over")
    func matchRemoved() async throws {
        let daemon = try PrivateBus()
        let fake = try await FakeAdapter(daemon)
        fake.powered.value = true
        _ = try await fake.untilPowered(timeout: longWait)
        // RemoveMatch of the same rule fails once the wait removed it: the bus keeps no rule for a finished wait.
        try await Task.sleep(for: .milliseconds(50))
        await #expect(throws: DBusError.self) {
            _ = try await fake.client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                           interface: "org.freedesktop.DBus", member: "RemoveMatch", [.string(fake.rule.text)])
        }
    }
}

