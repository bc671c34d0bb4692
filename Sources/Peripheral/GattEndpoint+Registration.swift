import BlueZAPI
import DBus
import Foundation
import RemoteTouchProtocol
import Waiting

extension GattEndpoint {
    func register() async throws(PeripheralError) {
        let adapter = BlueZ.adapterPath(configuration.adapter)
        let adapterName = configuration.adapter
        let step: @Sendable (String, DBusError) -> PeripheralError = { what, error in
            PeripheralError(
                .bluez, "\(what) failed: \(error.name): \(error.message)",
                hint: error.name == DBusError.unknownObjectName || error.name.hasSuffix("ServiceUnknown")
                    ? "no adapter \(adapterName) on bluetoothd: `bluetoothctl list`, or `hil doctor`"
                    : "is bluetoothd running on this bus? `hil doctor` checks the rigs")
        }
        try await waitUntilPowered(step)
        // The agent, the application and the advertisement are independent: registered at once, one round trip
        // to bluetoothd instead of three in a row.
        async let agent = failure { () async throws(DBusError) in
            _ = try await connection.call(destination: BlueZ.service, path: "/org/bluez", interface: BlueZ.agentManager,
                                          member: "RegisterAgent", [.objectPath(PeripheralConfiguration.agentPath), .string("NoInputNoOutput")])
            _ = try await connection.call(destination: BlueZ.service, path: "/org/bluez", interface: BlueZ.agentManager,
                                          member: "RequestDefaultAgent", [.objectPath(PeripheralConfiguration.agentPath)])
        }
        async let application = failure { () async throws(DBusError) in
            _ = try await connection.call(destination: BlueZ.service, path: adapter, interface: BlueZ.gattManager,
                                          member: "RegisterApplication", [.objectPath(PeripheralConfiguration.applicationPath), .properties([])])
        }
        async let advertisement = advertisementFailure(step)
        if let error = await agent { throw step("registering the pairing agent", error) }
        if let error = await application { throw step("GattManager1.RegisterApplication on \(adapter)", error) }
        if let error = await advertisement { throw error }
        log.info("registered on \(configuration.adapter): service \(RemoteTouchService.serviceUUID), advertising as \"\(configuration.name)\"")
        if let warning = BluetoothdBearers.running()?.warning { log.warning(warning) }
    }

    /// Waits for bluetoothd to bring the adapter up (it powers adapters itself on start), on Adapter1's
    /// `PropertiesChanged` (and `InterfacesAdded` or bluetoothd's `NameOwnerChanged` while the adapter is not there
    /// yet); powers it on only if it stays off for 3 s, so we do not race bluetoothd's own power-on (advertising
    /// registered in that race was accepted but never active). 10 s in all.
    private func waitUntilPowered(_ step: @Sendable (String, DBusError) -> PeripheralError) async throws(PeripheralError) {
        let adapter = BlueZ.adapterPath(configuration.adapter)
        let connection = connection
        let lastError = Noted<DBusError?>(nil)
        let power = Noted((mayAsk: false, asked: false))
        let check: @Sendable (DBusMessage?) async -> Void? = { signal in
            if signal?.changed("Powered", of: BlueZ.adapter)?.boolValue == true { return () }
            do throws(DBusError) {
                let reply = try await connection.call(
                    destination: BlueZ.service, path: adapter, interface: "org.freedesktop.DBus.Properties", member: "Get",
                    [.string(BlueZ.adapter), .string("Powered")], timeout: .seconds(3))
                lastError.set(nil)
                if reply.first?.unwrapped.boolValue == true { return () }
                var ask = false
                power.update { state in
                    ask = state.mayAsk && !state.asked
                    if ask { state.asked = true }
                }
                // A refused power-on is not fatal: bluetoothd may still power the adapter on by itself.
                if ask {
                    _ = try? await connection.call(
                        destination: BlueZ.service, path: adapter, interface: "org.freedesktop.DBus.Properties", member: "Set",
                        [.string(BlueZ.adapter), .string("Powered"), .variant(.bool(true))])
                }
            } catch {
                lastError.set(error)  // the adapter may not be exported yet
            }
            return nil
        }
        let rules: [DBusMatchRule] = [
            .propertiesChanged(sender: BlueZ.service, path: adapter, of: BlueZ.adapter),
            .interfacesAdded(sender: BlueZ.service), .nameOwnerChanged(BlueZ.service),
        ]
        for (mayAsk, timeout) in [(false, Duration.seconds(3)), (true, .seconds(7))] {
            power.update { $0.mayAsk = mayAsk }
            do {
                try await connection.until("Powered on \(configuration.adapter)", timeout: timeout, signalledBy: rules, check)
                return
            } catch is WaitTimeout {
                continue
            } catch let error as DBusError {
                throw step("watching adapter \(configuration.adapter)", error)
            } catch {
                throw PeripheralError(
                    .interrupted, "waiting for adapter \(configuration.adapter) to power on: cancelled")
            }
        }
        if let error = lastError.value { throw step("reading adapter \(configuration.adapter)", error) }
        throw PeripheralError(.adapter, "adapter \(configuration.adapter) did not power on within 10 s",
                              hint: "check `bluetoothctl show \(configuration.adapter)` and rfkill")
    }

    /// The error a D-Bus exchange ended with, or nil: for running several at once.
    private func failure(_ exchange: () async throws(DBusError) -> Void) async -> DBusError? {
        do {
            try await exchange()
            return nil
        } catch {
            return error
        }
    }

    private func advertisementFailure(_ step: @Sendable (String, DBusError) -> PeripheralError) async -> PeripheralError? {
        do {
            try await registerAdvertisement(step)
            return nil
        } catch {
            return error
        }
    }

    /// Registers the advertisement and checks it is active (`ActiveInstances`), registering it once more if
    /// bluetoothd accepted it without starting it.
    func registerAdvertisement(_ step: (String, DBusError) -> PeripheralError) async throws(PeripheralError) {
        let adapter = BlueZ.adapterPath(configuration.adapter)
        let path = PeripheralConfiguration.advertisementPath
        for attempt in 1...2 {
            do {
                _ = try await connection.call(destination: BlueZ.service, path: adapter, interface: BlueZ.advertisingManager,
                                              member: "RegisterAdvertisement", [.objectPath(path), .properties([])])
            } catch {
                throw step("LEAdvertisingManager1.RegisterAdvertisement on \(adapter)", error)
            }
            if try await advertisementActive(on: adapter, within: .seconds(2)) { return }
            log.warning("advertisement registered but not active on \(configuration.adapter) (attempt \(attempt)); registering it again")
            _ = try? await connection.call(destination: BlueZ.service, path: adapter, interface: BlueZ.advertisingManager,
                                           member: "UnregisterAdvertisement", [.objectPath(path)])
        }
        throw PeripheralError(
            .adapter, "the advertisement on \(configuration.adapter) was accepted but never became active",
            hint: "`bluetoothctl show \(configuration.adapter)` shows ActiveInstances; restart bluetoothd")
    }

    /// Whether bluetoothd reports an active advertisement (`ActiveInstances` > 0, announced by its
    /// `PropertiesChanged`) within `timeout`.
    private func advertisementActive(on adapter: String, within timeout: Duration) async throws(PeripheralError) -> Bool {
        let connection = connection
        do {
            try await connection.until(
                "an active advertisement on \(configuration.adapter)", timeout: timeout,
                signalledBy: [.propertiesChanged(sender: BlueZ.service, path: adapter, of: BlueZ.advertisingManager)]
            ) { signal -> Void? in
                if let count = signal?.changed("ActiveInstances", of: BlueZ.advertisingManager)?.integerValue { return count > 0 ? () : nil }
                let active = try? await connection.call(
                    destination: BlueZ.service, path: adapter, interface: "org.freedesktop.DBus.Properties", member: "Get",
                    [.string(BlueZ.advertisingManager), .string("ActiveInstances")], timeout: .seconds(2))
                guard let count = active?.first?.unwrapped.integerValue else { return nil }
                return count > 0 ? () : nil
            }
            return true
        } catch is WaitTimeout {
            return false
        } catch {
            throw PeripheralError(.adapter, "checking the advertisement on \(configuration.adapter): \(error is CancellationError ? "cancelled" : "\(error)")")
        }
    }

    /// Re-registers when bluetoothd comes back; releases held keys when a central disconnects.
    /// - Returns: the watching tasks, for `stop` to cancel.
    func watchBlueZ() async -> [Task<Void, Never>] {
        let owners = try? await connection.signals(DBusMatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: BlueZ.service))
        let devices = try? await connection.signals(DBusMatchRule(
            sender: BlueZ.service, pathNamespace: BlueZ.adapterPath(configuration.adapter),
            interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", arg0: BlueZ.device))
        var started: [Task<Void, Never>] = []
        if let owners {
            started.append(Task { [self] in
                for await change in owners {
                    let newOwner = change.body.count == 3 ? change.body[2].stringValue ?? "" : ""
                    if newOwner.isEmpty {
                        log.warning("bluetoothd left the bus; holding nothing until it is back")
                        host.sessionEnded("bluetoothd", reason: "bluetoothd stopped")
                        continue
                    }
                    log.info("bluetoothd is back (\(newOwner)); registering again")
                    await reRegister()
                }
            })
        }
        if let devices {
            started.append(Task { [self] in
                for await change in devices {
                    guard let properties = change.body.count > 1 ? change.body[1].dictionaryValue : nil,
                        properties["Connected"]?.unwrapped.boolValue == false
                    else { continue }
                    let address = change.path.flatMap(BlueZ.address(ofDevicePath:)) ?? "?"
                    log.info("central \(address) disconnected")
                    host.sessionEnded(address, reason: "central \(address) disconnected")
                }
            })
        }
        return started
    }

    /// Registers again after bluetoothd came back, trying every 100 ms for 10 s (bluetoothd takes a moment to bring
    /// its adapters back; a try before that fails).
    func reRegister() async {
        let start = ContinuousClock.now
        do {
            try await Retry.within(.seconds(10), for: "registration", pause: .milliseconds(100)) { try await register() }
        } catch is WaitTimeout {
            log.error("could not register again within 10 s of bluetoothd's return")
            return
        } catch {
            return  // cancelled: the endpoint is stopping
        }
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        log.info("registered again \(String(format: "%.1f", ms)) ms after bluetoothd came back")
        host.ready(name)
    }
}
