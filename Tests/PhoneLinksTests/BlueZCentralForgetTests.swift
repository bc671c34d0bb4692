import DBus
import HILTestSupport
import PhoneLinks
import Testing

/// The phone forgets devices between scenarios and before a bench; bluetoothd may drop one on its own in between.
@Suite("The phone's BLE client forgets devices, against a fake bluetoothd on a private bus", .serialized)
struct BlueZCentralForgetTests {
    @Test("a device bluetoothd dropped after it was listed (org.bluez.Error.DoesNotExist) is forgotten, not an error")
    func goneAlready() async throws {
        let daemon = try PrivateBus()
        let bluez = try await FakeBlueZ(daemon)
        try await bluez.advertise()
        bluez.removeDeviceError.value = DBusError(name: "org.bluez.Error.DoesNotExist", message: "Does Not Exist")
        let central = BlueZCentral(connection: try await daemon.connect(), adapter: "hci1")
        #expect(try await central.forgetAllDevices() == 1)
    }

    @Test("any other refusal of RemoveDevice is still an error, with bluetoothd's error name")
    func otherRefusal() async throws {
        let daemon = try PrivateBus()
        let bluez = try await FakeBlueZ(daemon)
        try await bluez.advertise()
        bluez.removeDeviceError.value = DBusError(name: "org.bluez.Error.NotReady", message: "Resource Not Ready")
        let central = BlueZCentral(connection: try await daemon.connect(), adapter: "hci1")
        let error = await #expect(throws: CentralError.self) { try await central.forgetAllDevices() }
        #expect(error?.dbusName == "org.bluez.Error.NotReady")
        #expect(error?.message.hasPrefix("removing \(FakeBlueZ.device) failed") == true)
    }
}
