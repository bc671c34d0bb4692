import Avahi
import DBus
import HILTestSupport
import Testing

/// Avahi's waits are on its signals (Server and EntryGroup `StateChanged`), against a fake avahi-daemon on a private bus.
@Suite("Avahi's waits on its StateChanged signals, against a fake avahi-daemon on a private bus", .serialized)
struct AvahiSignalTests {
    @Test("avahi-daemon running: the wait ends on StateChanged, long before its timeout")
    func running() async throws {
        let daemon = try PrivateBus()
        let avahi = try await FakeAvahi(daemon)
        let client = try await daemon.connect()
        let start = ContinuousClock.now
        Task {
            try await Task.sleep(for: .milliseconds(50))
            try await avahi.serverState(.running)
        }
        try await Avahi.waitUntilRunning(on: client, timeout: longWait)
        #expect(ContinuousClock.now - start < promptly)
    }

    @Test("avahi-daemon still registering: the timeout's message names it and how long")
    func notRunning() async throws {
        let daemon = try PrivateBus()
        let avahi = try await FakeAvahi(daemon)
        let client = try await daemon.connect()
        let error = await #expect(throws: AvahiError.self) { try await Avahi.waitUntilRunning(on: client, timeout: .milliseconds(200)) }
        #expect(error?.what == "avahi-daemon was not running within 0.2 seconds")
        withExtendedLifetime(avahi) {}
    }

    @Test("no avahi-daemon on the bus: the last error it met is what the timeout says")
    func noDaemon() async throws {
        let daemon = try PrivateBus()
        let client = try await daemon.connect()
        let error = await #expect(throws: AvahiError.self) { try await Avahi.waitUntilRunning(on: client, timeout: .milliseconds(200)) }
        #expect(error?.what.hasPrefix("asking avahi-daemon its state failed") == true)
    }

    @Test("publishing: established on the entry group's StateChanged; cancelled, the wait ends at once")
    func publish() async throws {
        let daemon = try PrivateBus()
        let avahi = try await FakeAvahi(daemon)
        try await avahi.serverState(.running)
        let client = try await daemon.connect()
        let publisher = AvahiPublisher(
            connection: client, service: .init(name: "hil", type: "_claude-controller._tcp", port: 51423, txt: []), log: { _ in })
        let start = ContinuousClock.now
        try await publisher.start(timeout: longWait)
        #expect(ContinuousClock.now - start < promptly)
        // IPv4, the default domain, and no host: avahi-daemon makes its own host name the SRV target, whatever host
        // the instance name mentions (docs/protocol.md, "Finding the computer").
        let call = try #require(avahi.added.value.first)
        #expect(call.count == 9)
        #expect(call[1] == .int32(Avahi.inet) && call[3] == .string("hil") && call[4] == .string("_claude-controller._tcp"))
        #expect(call[5] == .string("") && call[6] == .string("") && call[7] == .uint16(51423), "\(call)")
        await publisher.stop()

        let stuck = AvahiPublisher(
            connection: client, service: .init(name: "hil", type: "_claude-controller._tcp", port: 51423, txt: []), log: { _ in })
        avahi.establishes.value = false
        let waiting = Task { try await stuck.start(timeout: longWait) }
        Task {
            try await Task.sleep(for: .milliseconds(50))
            waiting.cancel()
        }
        let result = await waiting.result
        let error = #expect(throws: AvahiError.self) { try result.get() }
        #expect(error?.what.contains("cancelled") == true)
        #expect(ContinuousClock.now - start < promptly)
    }
}
