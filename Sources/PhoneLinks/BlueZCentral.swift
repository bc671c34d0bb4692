import BlueZAPI
package import DBus
import Foundation
import RemoteTouchProtocol

/// The phone's BLE client over BlueZ D-Bus, on the rig's central adapter: finds the RemoteTouch peripheral
/// by service UUID, connects, resolves its characteristics, and reads, writes and subscribes.
package final class BlueZCentral: Sendable {
    package let connection: DBusConnection
    package let adapter: String
    /// The computer's address when the rig has several (lanes): only that device is connected to; nil: any
    /// device advertising the RemoteTouch service.
    package let computerAddress: String?
    static let properties = "org.freedesktop.DBus.Properties"
    /// How long one discovery scan may find nothing before it is restarted.
    package static let rescanAfter = Duration.seconds(1)

    package init(connection: DBusConnection, adapter: String, computerAddress: String? = nil) {
        self.connection = connection
        self.adapter = adapter
        self.computerAddress = computerAddress
    }

    /// The peripheral once connected: its device path and characteristic paths.
    package struct Peripheral: Sendable {
        package var devicePath: String
        package var address: String
        package var command: String
        package var status: String
        package var pairing: String
        /// The hid transport's report characteristic (…9AC0); nil on a computer without it.
        package var report: String?
    }

    /// Starts LE discovery filtered by the RemoteTouch service, as the phone's scan screen does. Started before
    /// the peripheral advertises, the first report reaches the kernel while its discovery is active (see below).
    package func startDiscovery() async throws(CentralError) {
        let adapterPath = BlueZ.adapterPath(adapter)
        try await call(adapterPath, BlueZ.adapter, "SetDiscoveryFilter", [
            .properties([("UUIDs", .strings([RemoteTouchService.serviceUUID])), ("Transport", .string("le"))])
        ], "setting the discovery filter on \(adapter)")
        try await call(adapterPath, BlueZ.adapter, "StartDiscovery", [], "starting discovery on \(adapter)")
    }

    /// Reads a characteristic's value.
    package func read(_ characteristic: String) async throws(CentralError) -> [UInt8] {
        let reply = try await call(characteristic, BlueZ.gattCharacteristic, "ReadValue", [.properties([])], "reading \(characteristic)")
        return reply.first?.bytesValue ?? []
    }

    /// Writes a value: `withResponse` waits for the peripheral's answer (an error comes back as `CentralError`
    /// with BlueZ's error name); without, it is a write command.
    package func write(_ characteristic: String, _ bytes: [UInt8], withResponse: Bool) async throws(CentralError) {
        try await call(characteristic, BlueZ.gattCharacteristic, "WriteValue", [
            .bytes(bytes), .properties([("type", .string(withResponse ? "request" : "command"))]),
        ], "writing \(characteristic)")
    }

    /// `AcquireWrite`: a socket whose every packet is one write without response, bypassing D-Bus.
    /// - Returns: the descriptor (the caller closes it) and the MTU.
    package func acquireWrite(_ characteristic: String) async throws(CentralError) -> (fd: Int32, mtu: Int) {
        let reply = try await call(characteristic, BlueZ.gattCharacteristic, "AcquireWrite", [.properties([])],
                                   "acquiring \(characteristic) for writing")
        guard case .fileDescriptor(let fd) = reply.first, let mtu = reply.last?.integerValue else {
            throw CentralError(.unexpectedReply, "AcquireWrite on \(characteristic) returned \(reply)")
        }
        return (fd, Int(mtu))
    }

    /// Notifications of a characteristic's value until the stream is dropped.
    package func notifications(_ characteristic: String) async throws(CentralError) -> AsyncStream<[UInt8]> {
        let changes: AsyncStream<DBusMessage>
        do {
            changes = try await connection.signals(DBusMatchRule(
                sender: BlueZ.service, path: characteristic, interface: Self.properties, member: "PropertiesChanged",
                arg0: BlueZ.gattCharacteristic))
        } catch {
            throw CentralError(.bluez, "subscribing to \(characteristic): \(error.message)", dbusName: error.name)
        }
        try await call(characteristic, BlueZ.gattCharacteristic, "StartNotify", [], "starting notifications of \(characteristic)")
        return AsyncStream { continuation in
            let task = Task {
                for await change in changes {
                    if let value = change.body.count > 1 ? change.body[1].dictionaryValue?["Value"]?.bytesValue : nil {
                        continuation.yield(value)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Whether BlueZ sees the link to `peripheral` up.
    package func isConnected(_ peripheral: Peripheral) async -> Bool {
        (try? await property(peripheral.devicePath, BlueZ.device, "Connected").boolValue) == true
    }

    /// An adapter's public address (`Adapter1.Address`), e.g. the computer's, to connect to it alone.
    package func address(of adapter: String) async throws(CentralError) -> String {
        guard let text = try await property(BlueZ.adapterPath(adapter), BlueZ.adapter, "Address").stringValue else {
            throw CentralError(.unexpectedReply, "\(adapter) has no Address property")
        }
        return text
    }

    /// Whether an adapter of this bluetoothd is there and powered.
    package func isPowered(_ adapter: String) async -> Bool {
        (try? await property(BlueZ.adapterPath(adapter), BlueZ.adapter, "Powered").boolValue) == true
    }

    /// How many advertisements bluetoothd has active on an adapter (`LEAdvertisingManager1.ActiveInstances`);
    /// nil while the adapter is not there. The rig reads it for the computer's adapter, which shares this bluetoothd.
    package func activeAdvertisements(on adapter: String) async -> Int? {
        guard let value = try? await property(BlueZ.adapterPath(adapter), BlueZ.advertisingManager, "ActiveInstances") else { return nil }
        return value.integerValue.map(Int.init)
    }

    /// Powers an adapter of this bluetoothd on or off (the rig uses it to drop a link).
    package func setPowered(_ adapter: String, _ on: Bool) async throws(CentralError) {
        try await call(BlueZ.adapterPath(adapter), Self.properties, "Set", [.string(BlueZ.adapter), .string("Powered"), .variant(.bool(on))],
                       "powering \(adapter) \(on ? "on" : "off")")
    }

    /// Forgets the peripheral: removes the device and its cached services, so the next discovery starts
    /// fresh. Immediate once the link is down; on a live link BlueZ first gives profiles 2 s, as for `Disconnect`.
    package func forget(_ peripheral: Peripheral) async throws(CentralError) {
        try await remove(peripheral.devicePath)
    }

    /// Forgets every device this adapter knows (RemoveDevice each); returns how many.
    @discardableResult
    package func forgetAllDevices() async throws(CentralError) -> Int {
        let adapterPath = BlueZ.adapterPath(adapter)
        let devices = try await managedObjects().keys.filter { $0.hasPrefix(adapterPath + "/dev_") && !$0.dropFirst(adapterPath.count + 1).contains("/") }
        for device in devices {
            try await remove(device)
        }
        return devices.count
    }

    /// RemoveDevice. A device bluetoothd no longer has (`org.bluez.Error.DoesNotExist`: a temporary device it dropped
    /// after its timeout, or one another client removed, between our listing and the call) is gone, as asked.
    private func remove(_ device: String) async throws(CentralError) {
        do {
            try await call(BlueZ.adapterPath(adapter), BlueZ.adapter, "RemoveDevice", [.objectPath(device)], "removing \(device)")
        } catch {
            guard error.dbusName == "org.bluez.Error.DoesNotExist" else { throw error }
        }
    }

    /// The user's disconnect: `Device1.Disconnect` (BlueZ lets profiles close for up to 2 s before the link goes).
    package func disconnect(_ peripheral: Peripheral) async throws(CentralError) {
        try await call(peripheral.devicePath, BlueZ.device, "Disconnect", [], "disconnecting \(peripheral.devicePath)")
    }

    // MARK: Helpers

    @discardableResult
    func call(_ path: String, _ interface: String, _ member: String, _ body: [DBusValue], _ what: String,
                      timeout: Duration = .seconds(25)) async throws(CentralError) -> [DBusValue]
    {
        do {
            return try await connection.call(destination: BlueZ.service, path: path, interface: interface, member: member, body, timeout: timeout)
        } catch {
            throw CentralError(.bluez, "\(what) failed: \(error.message)", dbusName: error.name)
        }
    }

    func property(_ path: String, _ interface: String, _ name: String) async throws(CentralError) -> DBusValue {
        let reply = try await call(path, Self.properties, "Get", [.string(interface), .string(name)], "reading \(name) of \(path)")
        return reply.first?.unwrapped ?? .bool(false)
    }

    func managedObjects() async throws(CentralError) -> [String: [String: DBusValue]] {
        let reply = try await call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", [], "listing BlueZ objects")
        var result: [String: [String: DBusValue]] = [:]
        for (path, interfaces) in reply.first?.dictionaryValue ?? [:] {
            result[path] = interfaces.dictionaryValue ?? [:]
        }
        return result
    }
}
