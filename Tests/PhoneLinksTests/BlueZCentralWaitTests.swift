import HILTestSupport
import PhoneLinks
import Testing

/// The phone's BLE client waits on bluetoothd's signals with named timeouts, against a fake bluetoothd on a private bus.
@Suite("The phone's BLE client waits on BlueZ's signals, against a fake bluetoothd on a private bus", .serialized)
struct BlueZCentralWaitTests {
    @Test("an adapter powered: the wait ends on PropertiesChanged Powered, long before its timeout")
    func powered() async throws {
        let daemon = try PrivateBus()
        let bluez = try await FakeBlueZ(daemon)
        let central = BlueZCentral(connection: try await daemon.connect(), adapter: "hci1")
        let start = ContinuousClock.now
        Task {
            try await Task.sleep(for: .milliseconds(50))
            try await bluez.power(true)
        }
        try await central.waitUntilPowered("hci1", true, timeout: longWait)
        #expect(ContinuousClock.now - start < promptly)
    }

    @Test("an adapter that stays off: the timeout's message names the adapter, the state and how long")
    func notPowered() async throws {
        let daemon = try PrivateBus()
        let bluez = try await FakeBlueZ(daemon)
        let central = BlueZCentral(connection: try await daemon.connect(), adapter: "hci1")
        let error = await #expect(throws: CentralError.self) { try await central.waitUntilPowered("hci1", true, timeout: .milliseconds(200)) }
        #expect(error?.message == "hci1 was not powered on within 0.2 seconds")
        withExtendedLifetime(bluez) {}
    }

    @Test("discovery finds the computer on InterfacesAdded, connects, and resolves on ServicesResolved and the characteristics")
    func connects() async throws {
        let daemon = try PrivateBus()
        let bluez = try await FakeBlueZ(daemon)
        bluez.onConnect.value = {
            try? await bluez.resolveServices()
        }
        let central = BlueZCentral(connection: try await daemon.connect(), adapter: "hci1")
        Task {
            try await Task.sleep(for: .milliseconds(50))
            try await bluez.advertise()
        }
        let start = ContinuousClock.now
        let peripheral = try await central.connectToRemoteTouch(timeout: longWait)
        #expect(ContinuousClock.now - start < promptly)
        #expect(peripheral.devicePath == FakeBlueZ.device)
        #expect(peripheral.command == FakeBlueZ.device + "/service0010/char001")
        #expect(peripheral.pairing == FakeBlueZ.device + "/service0010/char003")
    }

    @Test("a link down is seen on PropertiesChanged Connected; one that stays up is reported at the timeout")
    func disconnect() async throws {
        let daemon = try PrivateBus()
        let bluez = try await FakeBlueZ(daemon)
        try await bluez.advertise()
        bluez.connected.value = true
        try await bluez.resolveServices()
        let central = BlueZCentral(connection: try await daemon.connect(), adapter: "hci1")
        let peripheral = try await central.resolve(FakeBlueZ.device, timeout: longWait)
        #expect(try await central.waitUntilDisconnected(peripheral, timeout: .milliseconds(200)) == false)
        Task {
            try await Task.sleep(for: .milliseconds(50))
            try await bluez.dropLink()
        }
        #expect(try await central.waitUntilDisconnected(peripheral, timeout: longWait))
    }

    @Test("a cancelled wait (an interrupted run) ends at once and says so")
    func cancelled() async throws {
        let daemon = try PrivateBus()
        let bluez = try await FakeBlueZ(daemon)
        let central = BlueZCentral(connection: try await daemon.connect(), adapter: "hci1")
        let start = ContinuousClock.now
        let waiting = Task { try await central.waitUntilPowered("hci1", true, timeout: longWait) }
        Task {
            try await Task.sleep(for: .milliseconds(50))
            waiting.cancel()
        }
        let result = await waiting.result
        let error = #expect(throws: CentralError.self) { try result.get() }
        #expect(error?.message == "waiting for hci1 to power on: cancelled (the run was interrupted)")
        #expect(ContinuousClock.now - start < promptly)
        withExtendedLifetime(bluez) {}
    }
}
