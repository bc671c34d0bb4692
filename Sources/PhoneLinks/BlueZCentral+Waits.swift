import BlueZAPI
import DBus
import RemoteTouchProtocol
import Waiting

/// The central's waits, each on the BlueZ signal that announces what it waits for, with a named timeout: a device
/// seen (`InterfacesAdded`, or its `PropertiesChanged` UUIDs), services resolved and a link up or down (Device1
/// `PropertiesChanged` ServicesResolved / Connected), characteristics exported (`InterfacesAdded`), an adapter
/// powered (Adapter1 `PropertiesChanged` Powered).
extension BlueZCentral {
    /// Discovers a device advertising the RemoteTouch service (LE, filtered by UUID), connects to it and waits
    /// until its GATT services are resolved.
    /// - Throws: `CentralError` naming the step that did not finish within `timeout`.
    /// - Parameter scanning: discovery was started already (`startDiscovery`), before the peripheral advertised.
    package func connectToRemoteTouch(timeout: Duration = .seconds(30), scanning: Bool = false) async throws(CentralError) -> Peripheral {
        let adapterPath = BlueZ.adapterPath(adapter)
        let deadline = ContinuousClock.now + timeout
        if !scanning { try await startDiscovery() }
        let device: String
        do {
            device = try await discover(by: deadline, timeout: timeout)
        } catch {
            _ = try? await call(adapterPath, BlueZ.adapter, "StopDiscovery", [], "stopping discovery")
            throw error
        }
        _ = try? await call(adapterPath, BlueZ.adapter, "StopDiscovery", [], "stopping discovery")
        try await call(device, BlueZ.device, "Connect", [], "connecting to \(device)", timeout: timeout)
        return try await resolve(device, timeout: deadline - ContinuousClock.now)
    }

    /// The RemoteTouch device once discovery reports it: `InterfacesAdded` for a new device, `PropertiesChanged` of a
    /// known one's UUIDs or address.
    ///
    /// A scan that found nothing within `rescanAfter` is started afresh. The controller filters duplicate reports,
    /// so an advertiser is reported once per scan; and the kernel drops reports that arrive before it has marked
    /// discovery active. btvirt answers the scan enable with the reports of a computer already advertising at once,
    /// and often loses that race (HCI trace: the two reports, then the Discovering event, then silence), for many
    /// scans in a row. Scanning before the computer advertises avoids it; the rescans are the fallback.
    private func discover(by deadline: ContinuousClock.Instant, timeout: Duration) async throws(CentralError) -> String {
        let adapterPath = BlueZ.adapterPath(adapter)
        let notSeen = "no device advertising \(RemoteTouchService.serviceUUID)\(computerAddress.map { " at \($0)" } ?? "") seen on \(adapter) within \(timeout)"
        let rules: [DBusMatchRule] = [
            .interfacesAdded(sender: BlueZ.service),
            .propertiesChanged(sender: BlueZ.service, pathNamespace: adapterPath, of: BlueZ.device),
        ]
        while true {
            let left = deadline - .now
            guard left > .zero else { throw CentralError(.notFound, notSeen) }
            let found = try await signalled("a RemoteTouch device on \(adapter)", timeout: min(Self.rescanAfter, left),
                                            doing: "scanning on \(adapter)", rules) { signal throws(CentralError) -> String? in
                if let signal, !Self.mayNameDevice(signal, under: adapterPath) { return nil }
                return try await self.remoteTouchDevice()
            }
            if let found { return found }
            guard ContinuousClock.now < deadline else { throw CentralError(.notFound, notSeen) }
            _ = try? await call(adapterPath, BlueZ.adapter, "StopDiscovery", [], "stopping discovery")
            try await call(adapterPath, BlueZ.adapter, "StartDiscovery", [], "restarting discovery on \(adapter)")
        }
    }

    /// Whether a discovery signal can make a device match: a device object added, or its UUIDs or address changed
    /// (not its RSSI, which changes with every report).
    private static func mayNameDevice(_ signal: DBusMessage, under adapterPath: String) -> Bool {
        if signal.member == "InterfacesAdded" { return signal.body.first?.stringValue?.hasPrefix(adapterPath + "/dev_") == true }
        return signal.changed("UUIDs", of: BlueZ.device) != nil || signal.changed("Address", of: BlueZ.device) != nil
    }

    /// A device of this adapter advertising the RemoteTouch service (the computer's, when there are several).
    private func remoteTouchDevice() async throws(CentralError) -> String? {
        let adapterPath = BlueZ.adapterPath(adapter)
        return try await managedObjects().first { path, interfaces in
            let device = interfaces[BlueZ.device]?.dictionaryValue
            return path.hasPrefix(adapterPath + "/dev_")
                && device?["UUIDs"]?.arrayValue?.contains(.string(RemoteTouchService.serviceUUID)) == true
                && (computerAddress == nil || device?["Address"]?.stringValue?.uppercased() == computerAddress?.uppercased())
        }?.key
    }

    /// The RemoteTouch characteristics of a connected device, once its services are resolved and the three are
    /// there: after the computer's GATT application went and came back (it restarted), their object paths are
    /// new and appear as BlueZ rediscovers the services.
    /// - Throws: `CentralError` when they are not all there within `timeout`.
    package func resolve(_ device: String, timeout: Duration) async throws(CentralError) -> Peripheral {
        let deadline = ContinuousClock.now + timeout
        try await waitUntilResolved(device, timeout: timeout, doing: "resolving the services of \(device)")
        let found = try await signalled("the RemoteTouch characteristics of \(device)", timeout: deadline - .now,
                                        doing: "finding the characteristics of \(device)", [.interfacesAdded(sender: BlueZ.service)]
        ) { signal throws(CentralError) -> Peripheral? in
            if let signal, signal.body.first?.stringValue?.hasPrefix(device + "/") != true { return nil }
            return try await self.characteristics(of: device)
        }
        guard let found else {
            throw CentralError(.notRemoteTouch, "\(device) has no RemoteTouch characteristics (\(RemoteTouchService.commandUUID) …) within \(timeout): is it the RemoteTouch peripheral?")
        }
        return found
    }

    private func characteristics(of device: String) async throws(CentralError) -> Peripheral? {
        let objects = try await managedObjects()
        func characteristic(_ uuid: String) -> String? {
            objects.first { path, interfaces in
                path.hasPrefix(device + "/")
                    && interfaces[BlueZ.gattCharacteristic]?.dictionaryValue?["UUID"]?.stringValue?.lowercased() == uuid
            }?.key
        }
        guard let command = characteristic(RemoteTouchService.commandUUID), let status = characteristic(RemoteTouchService.statusUUID),
              let pairing = characteristic(RemoteTouchService.pairingUUID)
        else { return nil }
        return Peripheral(devicePath: device, address: BlueZ.address(ofDevicePath: device) ?? device, command: command, status: status,
                          pairing: pairing, report: characteristic(RemoteTouchService.reportUUID))
    }

    /// Connects again to a known peripheral and waits until its services are resolved (one try).
    package func reconnect(_ peripheral: Peripheral, timeout: Duration) async throws(CentralError) {
        let deadline = ContinuousClock.now + timeout
        try await call(peripheral.devicePath, BlueZ.device, "Connect", [], "reconnecting to \(peripheral.devicePath)",
                       timeout: timeout)
        try await waitUntilResolved(peripheral.devicePath, timeout: timeout, by: deadline, doing: "reconnecting to \(peripheral.devicePath)")
    }

    /// Waits for Device1 `ServicesResolved` = true.
    private func waitUntilResolved(_ device: String, timeout: Duration, by deadline: ContinuousClock.Instant? = nil, doing: String)
        async throws(CentralError)
    {
        let resolved = try await signalled("resolved services of \(device)", timeout: (deadline ?? .now + timeout) - .now, doing: doing,
                                           [.propertiesChanged(sender: BlueZ.service, path: device, of: BlueZ.device)]
        ) { signal throws(CentralError) -> Bool? in
            if let signal { return signal.changed("ServicesResolved", of: BlueZ.device)?.boolValue == true ? true : nil }
            return try await self.property(device, BlueZ.device, "ServicesResolved").boolValue == true ? true : nil
        }
        guard resolved != nil else { throw CentralError(.timeout, "services of \(device) not resolved within \(timeout)") }
    }

    /// Waits until BlueZ sees the link to `peripheral` down (Device1 `Connected` = false).
    /// - Returns: false when it was still up after `timeout`.
    package func waitUntilDisconnected(_ peripheral: Peripheral, timeout: Duration) async throws(CentralError) -> Bool {
        let device = peripheral.devicePath
        let down = try await signalled("the link to \(device) down", timeout: timeout, doing: "waiting for \(device) to disconnect",
                                       [.propertiesChanged(sender: BlueZ.service, path: device, of: BlueZ.device)]
        ) { signal throws(CentralError) -> Bool? in
            if let signal { return signal.changed("Connected", of: BlueZ.device)?.boolValue == false ? true : nil }
            return await self.isConnected(peripheral) ? nil : true
        }
        return down != nil
    }

    /// Waits until an adapter of this bluetoothd reports `Powered` as wanted.
    package func waitUntilPowered(_ adapter: String, _ on: Bool, timeout: Duration = .seconds(5)) async throws(CentralError) {
        let path = BlueZ.adapterPath(adapter)
        let powered = try await signalled("\(adapter) powered \(on ? "on" : "off")", timeout: timeout,
                                          doing: "waiting for \(adapter) to power \(on ? "on" : "off")",
                                          [.propertiesChanged(sender: BlueZ.service, path: path, of: BlueZ.adapter)]
        ) { signal throws(CentralError) -> Bool? in
            if let signal { return signal.changed("Powered", of: BlueZ.adapter)?.boolValue == on ? true : nil }
            return try await self.property(path, BlueZ.adapter, "Powered").boolValue == on ? true : nil
        }
        guard powered != nil else { throw CentralError(.timeout, "\(adapter) was not powered \(on ? "on" : "off") within \(timeout)") }
    }

    /// `DBusConnection.until` in the central's terms: nil when the time is up (the caller names the step that did
    /// not finish), a cancelled task (an interrupted run) ends it at once with "`doing`: cancelled".
    private func signalled<Value: Sendable>(
        _ what: String, timeout: Duration, doing: String, _ rules: [DBusMatchRule],
        _ check: @escaping @Sendable (DBusMessage?) async throws(CentralError) -> Value?
    ) async throws(CentralError) -> Value? {
        do {
            return try await connection.until(what, timeout: timeout, signalledBy: rules) { signal in try await check(signal) }
        } catch let error as CentralError {
            throw error
        } catch is WaitTimeout {
            return nil
        } catch is CancellationError {
            throw CentralError(.interrupted, "\(doing): cancelled (the run was interrupted)")
        } catch let error as DBusError {
            throw CentralError(.bluez, "\(doing): \(error.message)", dbusName: error.name)
        } catch {
            throw CentralError(.bluez, "\(doing): \(error)")
        }
    }
}

extension BlueZCentral {
    /// A central for `adapter` on the system bus: what a phone of another stack uses to take the computer's adapter
    /// down and up through bluetoothd, which still owns it.
    package static func onSystemBus(adapter: String) async throws -> BlueZCentral {
        BlueZCentral(connection: try await DBusConnection.connect(.system), adapter: adapter)
    }
}
