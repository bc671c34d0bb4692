import BlueZAPI
import DBus
import Evdev
import Foundation
import InputCodes
import RemoteTouchProtocol
import Synchronization

/// The computer side of RemoteTouch on Linux: a GATT application registered with bluetoothd, an LE
/// advertisement, a NoInputNoOutput agent, and a uinput device the commands are injected through.
///
/// Start order follows R10: the uinput device first, so a machine where events cannot be injected refuses
/// to start instead of running while dropping events.
public final class RemoteTouchPeripheral: Sendable {
    public let configuration: PeripheralConfiguration
    public let log: PeripheralLog
    public let pairing: PairingAuthority
    public let processor: CommandProcessor
    /// The uinput device's node (`/dev/input/eventN`), for verifiers.
    public let devnode: String?
    private let connection: DBusConnection
    private let status = Mutex(StatusState())
    private let tasks = Mutex<[Task<Void, Never>]>([])

    struct StatusState {
        var notifying = false
        var channel: SocketChannel?
        var value: [UInt8] = []
        var writers: [SocketChannel] = []
        /// Notifications not sent because the phone was not reading them (the socket was full), in this burst
        /// and in all.
        var droppedInBurst = 0
        var dropped = 0
    }

    private init(configuration: PeripheralConfiguration, log: PeripheralLog, pairing: PairingAuthority,
                 processor: CommandProcessor, devnode: String?, connection: DBusConnection)
    {
        self.configuration = configuration
        self.log = log
        self.pairing = pairing
        self.processor = processor
        self.devnode = devnode
        self.connection = connection
    }

    /// Creates the uinput device, connects to the bus, exports and registers everything.
    /// - Throws: `PeripheralError` naming what failed (the uinput device with the R10 advice, the adapter,
    ///   the D-Bus error name of a refused registration) and what to do.
    public static func start(_ configuration: PeripheralConfiguration, log: PeripheralLog) async throws(PeripheralError)
        -> RemoteTouchPeripheral
    {
        let device: UinputDevice
        do {
            device = try UinputDevice(name: configuration.uinputName, uinputPath: configuration.uinputPath)
        } catch {
            throw PeripheralError(
                "cannot inject input events: \(error.message) (R10: without it the peripheral would run while dropping every command)",
                hint: error.hint)
        }
        log.info("uinput device \"\(configuration.uinputName)\" at \(device.devnode ?? "?")")

        let codeFile = configuration.pairingCodeFile
        let pairing: PairingAuthority
        do {
            pairing = try PairingAuthority(
                settings: configuration.pairing, stateFile: configuration.stateDirectory + "/pairing.json",
                onCodeShown: { code, lifetime in
                    log.info("PAIRING CODE \(code.digits) (valid \(lifetime.components.seconds) s): enter it on the phone")
                    if let codeFile { StateFile.write(code.digits + "\n", to: codeFile) }
                })
        } catch {
            throw PeripheralError("\(error)")
        }
        var receipts: ReceiptLog?
        if let file = configuration.receiptsFile {
            do {
                receipts = try ReceiptLog(path: file)
            } catch {
                throw PeripheralError("cannot create the receipts log \(file): \(error.localizedDescription)")
            }
        }
        let processor = CommandProcessor(sink: UinputSink(device), pairing: pairing, log: log, receipts: receipts)

        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(configuration.bus)
        } catch {
            throw PeripheralError("cannot connect to the \(configuration.bus) bus: \(error)",
                                  hint: "is dbus running? `hil doctor` checks the rigs")
        }
        if let name = configuration.busName {
            do {
                try await connection.requestName(name)
            } catch {
                throw PeripheralError(
                    "cannot own \(name) on the \(configuration.bus) bus: \(error.message) (\(error.name))",
                    hint: error.name == "org.freedesktop.DBus.Error.NameTaken"
                        ? "another hil peripheral is running on this box"
                        : "install Rigs/hardware/dbus/org.remotetouch.hil.conf and be in group hil (Rigs/hardware/install.sh)")
            }
        }
        let peripheral = RemoteTouchPeripheral(
            configuration: configuration, log: log, pairing: pairing, processor: processor, devnode: device.devnode,
            connection: connection)
        try await peripheral.exportObjects()
        try await peripheral.register()
        await peripheral.watchBlueZ()
        peripheral.startStatusTimer()
        peripheral.startReceiptsFlush()
        return peripheral
    }

    /// Unregisters from bluetoothd and releases everything held.
    public func stop() async {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        processor.releaseAll(reason: "peripheral stopping")
        let adapter = BlueZ.adapterPath(configuration.adapter)
        _ = try? await connection.call(destination: BlueZ.service, path: adapter, interface: BlueZ.advertisingManager,
                                       member: "UnregisterAdvertisement", [.objectPath(PeripheralConfiguration.advertisementPath)], timeout: .seconds(3))
        _ = try? await connection.call(destination: BlueZ.service, path: adapter, interface: BlueZ.gattManager,
                                       member: "UnregisterApplication", [.objectPath(PeripheralConfiguration.applicationPath)], timeout: .seconds(3))
        _ = try? await connection.call(destination: BlueZ.service, path: "/org/bluez", interface: BlueZ.agentManager,
                                       member: "UnregisterAgent", [.objectPath(PeripheralConfiguration.agentPath)], timeout: .seconds(3))
        status.withLock { state in
            state.channel?.close()
            for writer in state.writers { writer.close() }
        }
        connection.close()
        processor.flushReceipts()
        let dropped = status.withLock { $0.dropped }
        log.info("stopped; \(Self.summary(processor.handlingTimes))" + (dropped > 0 ? "; \(dropped) status notification(s) dropped (the phone did not read them)" : ""))
    }

    /// `handled 60 commands, receipt → uinput write: p50 1.36 ms, p99 4.95 ms, max 4.95 ms`
    static func summary(_ times: [Duration]) -> String {
        guard !times.isEmpty else { return "handled 0 commands" }
        let sorted = times.sorted()
        func ms(_ p: Double) -> String {
            let value = sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
            return String(format: "%.2f ms", Double(value.components.attoseconds) / 1e15 + Double(value.components.seconds) * 1000)
        }
        return "handled \(times.count) commands, receipt → uinput write: p50 \(ms(0.5)), p99 \(ms(0.99)), max \(ms(1.0))"
    }

    // MARK: Objects

    private func exportObjects() async throws(PeripheralError) {
        let service = RemoteTouchService.self
        let path = PeripheralConfiguration.self
        let uuid = { (text: String) in DBusProperty("UUID", "s", get: { .string(text) }) }
        let inService = DBusProperty("Service", "o", get: { .objectPath(path.servicePath) })
        do {
            try await connection.addObjectManager(at: path.applicationPath)
            try await connection.export(path.servicePath, [
                DBusInterface(BlueZ.gattService, properties: [
                    uuid(service.serviceUUID), DBusProperty("Primary", "b", get: { .bool(true) }),
                ])
            ])
            try await connection.export(path.commandPath, [
                DBusInterface(BlueZ.gattCharacteristic, methods: [
                    DBusMethod("WriteValue", in: "aya{sv}", .immediate { [self] call throws(DBusError) in
                        try commandWritten(call.body[0].bytesValue ?? [], options: call.body[1])
                        return []
                    }),
                    DBusMethod("AcquireWrite", in: "a{sv}", out: "hq", .immediate { [self] call throws(DBusError) in
                        try acquireWrite(options: call.body[0])
                    }),
                ], properties: [
                    uuid(service.commandUUID), inService,
                    DBusProperty("Flags", "as", get: { .strings(["write", "write-without-response"]) }),
                    DBusProperty("WriteAcquired", "b", get: { [self] in .bool(status.withLock { !$0.writers.isEmpty }) }),
                ])
            ])
            try await connection.export(path.statusPath, [
                DBusInterface(BlueZ.gattCharacteristic, methods: [
                    DBusMethod("StartNotify", .immediate { [self] _ in
                        status.withLock { $0.notifying = true }
                        log.info("status notifications started")
                        return []
                    }),
                    DBusMethod("StopNotify", .immediate { [self] _ in
                        status.withLock { $0.notifying = false }
                        log.info("status notifications stopped")
                        return []
                    }),
                    DBusMethod("AcquireNotify", in: "a{sv}", out: "hq", .immediate { [self] call throws(DBusError) in
                        try acquireNotify(options: call.body[0])
                    }),
                ], properties: [
                    uuid(service.statusUUID), inService,
                    DBusProperty("Flags", "as", get: { .strings(["notify"]) }),
                    DBusProperty("Notifying", "b", get: { [self] in .bool(status.withLock { $0.notifying }) }),
                    DBusProperty("NotifyAcquired", "b", get: { [self] in .bool(status.withLock { $0.channel != nil }) }),
                    DBusProperty("Value", "ay", get: { [self] in .bytes(status.withLock { $0.value }) }),
                ])
            ])
            try await connection.export(path.pairingPath, [
                DBusInterface(BlueZ.gattCharacteristic, methods: [
                    DBusMethod("ReadValue", in: "a{sv}", out: "ay", .immediate { [self] call throws(DBusError) in
                        let central = try Self.central(call.body[0])
                        return [.bytes(pairing.read(by: central, now: Date().timeIntervalSince1970).encoded())]
                    }),
                    DBusMethod("WriteValue", in: "aya{sv}", .immediate { [self] call throws(DBusError) in
                        try pairingWritten(call.body[0].bytesValue ?? [], options: call.body[1])
                        return []
                    }),
                ], properties: [
                    uuid(service.pairingUUID), inService, DBusProperty("Flags", "as", get: { .strings(["read", "write"]) }),
                ])
            ])
            try await connection.export(path.advertisementPath, [
                DBusInterface(BlueZ.advertisement, methods: [
                    DBusMethod("Release", .immediate { [self] _ in
                        log.info("bluetoothd released the advertisement")
                        return []
                    })
                ], properties: [
                    DBusProperty("Type", "s", get: { .string("peripheral") }),
                    DBusProperty("ServiceUUIDs", "as", get: { .strings([service.serviceUUID]) }),
                    DBusProperty("LocalName", "s", get: { [configuration] in .string(configuration.name) }),
                    DBusProperty("Discoverable", "b", get: { .bool(true) }),
                ])
            ])
            try await connection.export(path.agentPath, [agentInterface()])
        } catch {
            throw PeripheralError("cannot export the GATT application: \(error)")
        }
    }

    /// Just Works pairing: bluetoothd cancels it unless an agent answers, so this one accepts.
    private func agentInterface() -> DBusInterface {
        let accept = { [log] (what: String) -> DBusMethodHandler in
            .immediate { call in
                log.info("agent: \(what) \(call.body.first?.stringValue ?? "") accepted")
                return []
            }
        }
        return DBusInterface(BlueZ.agent, methods: [
            DBusMethod("Release", accept("release")),
            DBusMethod("Cancel", accept("cancel")),
            DBusMethod("RequestAuthorization", in: "o", accept("authorization for")),
            DBusMethod("RequestConfirmation", in: "ou", accept("confirmation for")),
            DBusMethod("AuthorizeService", in: "os", accept("service for")),
            DBusMethod("DisplayPasskey", in: "ouq", accept("passkey display for")),
            DBusMethod("DisplayPinCode", in: "os", accept("PIN display for")),
            DBusMethod("RequestPasskey", in: "o", out: "u", .immediate { _ in [.uint32(0)] }),
            DBusMethod("RequestPinCode", in: "o", out: "s", .immediate { _ in [.string("0000")] }),
        ])
    }

    // MARK: Registration

    private func register() async throws(PeripheralError) {
        let adapter = BlueZ.adapterPath(configuration.adapter)
        let adapterName = configuration.adapter
        let step = { (what: String, error: DBusError) -> PeripheralError in
            PeripheralError(
                "\(what) failed: \(error.name): \(error.message)",
                hint: error.name == DBusError.unknownObjectName || error.name.hasSuffix("ServiceUnknown")
                    ? "no adapter \(adapterName) on bluetoothd: `bluetoothctl list`, or `hil doctor`"
                    : "is bluetoothd running on this bus? `hil doctor` checks the rigs")
        }
        // Wait for bluetoothd to bring the adapter up (it powers adapters itself on start); power it on only if
        // it stays off, so we do not race bluetoothd's own power-on (advertising registered in that race was
        // accepted but never active).
        let readyBy = ContinuousClock.now + .seconds(10)
        var poweredOn = false
        var askedForPower = false
        while !poweredOn {
            do {
                let reply = try await connection.call(
                    destination: BlueZ.service, path: adapter, interface: "org.freedesktop.DBus.Properties", member: "Get",
                    [.string(BlueZ.adapter), .string("Powered")], timeout: .seconds(3))
                poweredOn = reply.first?.unwrapped.boolValue == true
                if !poweredOn && !askedForPower && ContinuousClock.now > readyBy - .seconds(7) {
                    askedForPower = true
                    _ = try await connection.call(
                        destination: BlueZ.service, path: adapter, interface: "org.freedesktop.DBus.Properties", member: "Set",
                        [.string(BlueZ.adapter), .string("Powered"), .variant(.bool(true))])
                }
            } catch where ContinuousClock.now < readyBy {
                // The adapter may not be exported yet.
            } catch {
                throw step("reading adapter \(configuration.adapter)", error)
            }
            if !poweredOn {
                guard ContinuousClock.now < readyBy else {
                    throw PeripheralError("adapter \(configuration.adapter) did not power on within 10 s",
                                          hint: "check `bluetoothctl show \(configuration.adapter)` and rfkill")
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        do {
            _ = try await connection.call(destination: BlueZ.service, path: "/org/bluez", interface: BlueZ.agentManager,
                                          member: "RegisterAgent", [.objectPath(PeripheralConfiguration.agentPath), .string("NoInputNoOutput")])
            _ = try await connection.call(destination: BlueZ.service, path: "/org/bluez", interface: BlueZ.agentManager,
                                          member: "RequestDefaultAgent", [.objectPath(PeripheralConfiguration.agentPath)])
        } catch {
            throw step("registering the pairing agent", error)
        }
        do {
            _ = try await connection.call(destination: BlueZ.service, path: adapter, interface: BlueZ.gattManager,
                                          member: "RegisterApplication", [.objectPath(PeripheralConfiguration.applicationPath), .properties([])])
        } catch {
            throw step("GattManager1.RegisterApplication on \(adapter)", error)
        }
        try await registerAdvertisement(step)
        log.info("registered on \(configuration.adapter): service \(RemoteTouchService.serviceUUID), advertising as \"\(configuration.name)\"")
    }

    /// Registers the advertisement and checks it is active (`ActiveInstances`), registering it once more if
    /// bluetoothd accepted it without starting it.
    private func registerAdvertisement(_ step: (String, DBusError) -> PeripheralError) async throws(PeripheralError) {
        let adapter = BlueZ.adapterPath(configuration.adapter)
        let path = PeripheralConfiguration.advertisementPath
        for attempt in 1...2 {
            do {
                _ = try await connection.call(destination: BlueZ.service, path: adapter, interface: BlueZ.advertisingManager,
                                              member: "RegisterAdvertisement", [.objectPath(path), .properties([])])
            } catch {
                throw step("LEAdvertisingManager1.RegisterAdvertisement on \(adapter)", error)
            }
            let checkBy = ContinuousClock.now + .seconds(2)
            while ContinuousClock.now < checkBy {
                let active = try? await connection.call(
                    destination: BlueZ.service, path: adapter, interface: "org.freedesktop.DBus.Properties", member: "Get",
                    [.string(BlueZ.advertisingManager), .string("ActiveInstances")], timeout: .seconds(2))
                if let count = active?.first?.unwrapped.integerValue, count > 0 { return }
                try? await Task.sleep(for: .milliseconds(50))
            }
            log.warning("advertisement registered but not active on \(configuration.adapter) (attempt \(attempt)); registering it again")
            _ = try? await connection.call(destination: BlueZ.service, path: adapter, interface: BlueZ.advertisingManager,
                                           member: "UnregisterAdvertisement", [.objectPath(path)])
        }
        throw PeripheralError("the advertisement on \(configuration.adapter) was accepted but never became active",
                              hint: "`bluetoothctl show \(configuration.adapter)` shows ActiveInstances; restart bluetoothd")
    }

    /// Re-registers when bluetoothd comes back; releases held keys when a central disconnects.
    private func watchBlueZ() async {
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
                        processor.releaseAll(reason: "bluetoothd stopped")
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
                    processor.releaseAll(reason: "central \(address) disconnected")
                }
            })
        }
        tasks.withLock { $0 += started }
    }

    private func reRegister() async {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(10) {
            do {
                try await register()
                let elapsed = ContinuousClock.now - start
                let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
                log.info("registered again \(String(format: "%.1f", ms)) ms after bluetoothd came back")
                return
            } catch {
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        log.error("could not register again within 10 s of bluetoothd's return")
    }

    // MARK: Writes

    private static func central(_ options: DBusValue) throws(DBusError) -> String {
        guard let device = options.dictionaryValue?["device"]?.stringValue, let address = BlueZ.address(ofDevicePath: device) else {
            throw DBusError(name: "org.bluez.Error.Failed", message: "no device in the request's options")
        }
        return address
    }

    private func commandWritten(_ bytes: [UInt8], options: DBusValue) throws(DBusError) {
        let central = try Self.central(options)
        if case .refused(let error) = processor.handle(bytes, from: central) {
            publishStatus(error: error)
            throw DBusError(
                name: error.code == "notPaired" ? "org.bluez.Error.NotAuthorized" : "org.bluez.Error.Failed", message: error.message)
        }
    }

    private func pairingWritten(_ bytes: [UInt8], options: DBusValue) throws(DBusError) {
        let central = try Self.central(options)
        let outcome: PairingAuthority.Outcome
        do {
            outcome = try pairing.write(bytes, by: central, now: Date().timeIntervalSince1970)
        } catch {
            log.warning("pairing write from \(central) refused: \(error)")
            throw DBusError(name: "org.bluez.Error.InvalidValueLength", message: error.description)
        }
        let (code, message): (String, String)
        switch outcome {
        case .paired, .alreadyPaired:
            log.info("central \(central) paired")
            return
        case .wrongCode(let left): (code, message) = ("wrongCode", "wrong pairing code; \(left) attempt(s) left")
        case .lockedOut(let seconds): (code, message) = ("lockedOut", "too many wrong codes: pairing locked for \(seconds) s")
        case .codeExpired: (code, message) = ("codeExpired", "the pairing code expired: read the pairing characteristic for a new one")
        case .noCodeRequested: (code, message) = ("noCode", "no pairing code is active: read the pairing characteristic first")
        }
        log.warning("pairing by \(central) refused: \(message)")
        publishStatus(error: StatusError(code: code, message: message))
        throw DBusError(name: "org.bluez.Error.NotAuthorized", message: message)
    }

    /// A socket pair for an acquisition, and the MTU bluetoothd gave in its options (23 when it gave none).
    private static func channel(_ options: DBusValue) throws(DBusError) -> (SocketChannel, theirs: Int32, mtu: Int) {
        let mtu = Int(options.dictionaryValue?["mtu"]?.integerValue ?? 23)
        do {
            let (channel, theirs) = try SocketChannel.pair()
            return (channel, theirs, mtu)
        } catch {
            throw DBusError(name: "org.bluez.Error.Failed", message: error.message)
        }
    }

    private func acquireWrite(options: DBusValue) throws(DBusError) -> [DBusValue] {
        let central = try Self.central(options)
        let (channel, theirs, mtu) = try Self.channel(options)
        status.withLock { $0.writers.append(channel) }
        channel.startReading(mtu: mtu, { [self] packet in
            if case .refused(let error) = processor.handle(packet, from: central) { publishStatus(error: error) }
        }, ended: { [self] in
            status.withLock { $0.writers.removeAll { $0 === channel } }
            channel.close()
            log.info("acquired write channel of \(central) closed")
            processor.releaseAll(reason: "write channel of \(central) closed")
        })
        log.info("central \(central) acquired the command characteristic (MTU \(mtu))")
        return [.fileDescriptor(theirs), .uint16(UInt16(clamping: mtu))]
    }

    private func acquireNotify(options: DBusValue) throws(DBusError) -> [DBusValue] {
        let (channel, theirs, mtu) = try Self.channel(options)
        status.withLock { state in
            state.channel?.close()
            state.channel = channel
        }
        channel.startReading(mtu: mtu, { _ in }, ended: { [self] in
            status.withLock { state in
                if state.channel === channel { state.channel = nil }
            }
            channel.close()
            log.info("status notify channel closed")
        })
        log.info("status notifications acquired (MTU \(mtu))")
        return [.fileDescriptor(theirs), .uint16(UInt16(clamping: mtu))]
    }

    /// Writes buffered receipts out every 250 ms, so a test rig can follow them while the peripheral runs (the
    /// last lines of a burst would otherwise wait for the next 256 commands or the stop).
    private func startReceiptsFlush() {
        let task = Task { [processor] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                processor.flushReceipts()
            }
        }
        tasks.withLock { $0.append(task) }
    }

    // MARK: Status (R5)

    private func startStatusTimer() {
        let interval = configuration.statusInterval
        let task = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                publishStatus(error: nil)
            }
        }
        tasks.withLock { $0.append(task) }
    }

    /// Sends a status to a subscribed central: periodically, and at once with `error` after a refused write.
    func publishStatus(error: StatusError?) {
        let data = StatusData(
            batteryLevel: BatteryLevel.read() ?? configuration.fallbackBatteryLevel, unixTime: Date().timeIntervalSince1970,
            connectionQuality: 100, error: error)
        let bytes = data.encoded()
        let (notifying, channel) = status.withLock { state in
            state.value = bytes
            return (state.notifying, state.channel)
        }
        if let channel {
            // Never block here: the command path publishes an error status for every refused write, and a
            // phone that floods writes while not reading notifications would otherwise stall it.
            let result = channel.send(bytes)
            let report: String? = status.withLock { state in
                switch result {
                case .full:
                    state.droppedInBurst += 1
                    state.dropped += 1
                    return state.droppedInBurst == 1
                        ? "status notifications dropped: the phone is not reading them as fast as they come (the latest status stays readable)" : nil
                case .sent where state.droppedInBurst > 0:
                    defer { state.droppedInBurst = 0 }
                    return "status notifications flow again after \(state.droppedInBurst) were dropped"
                default:
                    return nil
                }
            }
            if let report { log.warning(report) }
        } else if notifying {
            let connection = connection
            Task {
                try? await connection.propertiesChanged(
                    path: PeripheralConfiguration.statusPath, interface: BlueZ.gattCharacteristic, [("Value", .bytes(bytes))])
            }
        }
    }
}
