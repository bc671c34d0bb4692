import BlueZAPI
import DBus
import HILTestSupport
import RemoteTouchProtocol

/// A bluetoothd stand-in on a private bus for the phone's BLE client: adapter hci1 (Powered, discovery), and the
/// computer's device once it "advertises" (Connected, ServicesResolved, then its RemoteTouch characteristics), each
/// change announced by the signal bluetoothd sends (`PropertiesChanged`, `InterfacesAdded` from the object manager).
final class FakeBlueZ: Sendable {
    let connection: DBusConnection
    let powered = Locked(false)
    let connected = Locked(false)
    let resolved = Locked(false)
    /// What RemoveDevice answers: nothing, or this error (a device bluetoothd dropped after it was listed).
    let removeDeviceError = Locked<DBusError?>(nil)
    /// Called when the phone asks to connect.
    let onConnect = Locked<(@Sendable () async -> Void)?>(nil)
    static let adapter = "/org/bluez/hci1"
    static let device = "/org/bluez/hci1/dev_00_AA_01_01_00_01"

    init(_ daemon: PrivateBus) async throws {
        connection = try await daemon.connect()
        try await connection.requestName(BlueZ.service)
        try await connection.addObjectManager(at: "/")
        let (powered, removeDeviceError) = (powered, removeDeviceError)
        let none = DBusMethodHandler.immediate { _ in [] }
        try await connection.export(Self.adapter, [
            DBusInterface(BlueZ.adapter, methods: [
                DBusMethod("SetDiscoveryFilter", in: "a{sv}", none), DBusMethod("StartDiscovery", none),
                DBusMethod("StopDiscovery", none), DBusMethod("RemoveDevice", in: "o", .immediate { _ throws(DBusError) in
                    if let error = removeDeviceError.value { throw error }
                    return []
                }),
            ], properties: [DBusProperty("Powered", "b", get: { .bool(powered.value) })])
        ])
    }

    func power(_ on: Bool) async throws {
        powered.value = on
        try await connection.propertiesChanged(path: Self.adapter, interface: BlueZ.adapter, [("Powered", .bool(on))])
    }

    /// The computer's device appears, advertising the RemoteTouch service (`InterfacesAdded`).
    func advertise() async throws {
        let (connected, resolved, onConnect) = (connected, resolved, onConnect)
        try await connection.export(Self.device, [
            DBusInterface(BlueZ.device, methods: [
                DBusMethod("Connect", .async { _ in
                    connected.value = true
                    if let then = onConnect.value { Task { await then() } }
                    return []
                }),
            ], properties: [
                DBusProperty("Address", "s", get: { .string("00:AA:01:01:00:01") }),
                DBusProperty("UUIDs", "as", get: { .strings([RemoteTouchService.serviceUUID]) }),
                DBusProperty("Connected", "b", get: { .bool(connected.value) }),
                DBusProperty("ServicesResolved", "b", get: { .bool(resolved.value) }),
            ])
        ])
    }

    /// The services are resolved (`PropertiesChanged`), then the characteristics appear (`InterfacesAdded`).
    func resolveServices() async throws {
        resolved.value = true
        try await connection.propertiesChanged(path: Self.device, interface: BlueZ.device, [("ServicesResolved", .bool(true))])
        for (index, uuid) in [RemoteTouchService.commandUUID, RemoteTouchService.statusUUID, RemoteTouchService.pairingUUID].enumerated() {
            try await connection.export(Self.device + "/service0010/char00\(index + 1)", [
                DBusInterface(BlueZ.gattCharacteristic, properties: [DBusProperty("UUID", "s", get: { .string(uuid) })])
            ])
        }
    }

    /// The link goes down (`PropertiesChanged` Connected = false).
    func dropLink() async throws {
        connected.value = false
        try await connection.propertiesChanged(path: Self.device, interface: BlueZ.device, [("Connected", .bool(false))])
    }
}
