import BlueZAPI
package import DBus
import Foundation
import RemoteTouchProtocol
import Synchronization

/// The BLE endpoint: the RemoteTouch GATT application registered with bluetoothd (command, status and pairing
/// characteristics), its LE advertisement and a NoInputNoOutput agent. Writes arrive by `WriteValue` or through
/// the socket `AcquireWrite` hands out; status leaves by notification. It registers again when bluetoothd comes
/// back, and a central's disconnect ends its session (the host lets go of what it holds).
package final class GattEndpoint: CommandEndpoint {
    package let name = "ble"
    let configuration: PeripheralConfiguration
    let log: PeripheralLog
    let connection: DBusConnection
    let status = Mutex(StatusState())
    /// The pairing values each central's Read Blobs continue (a pairing read at a small ATT MTU comes in parts).
    let pairingReads = Mutex(LongRead())
    private let hostBox = Mutex<ComputerHost?>(nil)
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

    package init(configuration: PeripheralConfiguration, log: PeripheralLog, connection: DBusConnection) {
        self.configuration = configuration
        self.log = log
        self.connection = connection
    }

    /// The host this endpoint serves; set by `start` before any object is exported.
    var host: ComputerHost {
        guard let host = hostBox.withLock({ $0 }) else { preconditionFailure("GattEndpoint used before start") }
        return host
    }

    /// Status notifications dropped because the phone did not read them.
    package var droppedStatus: Int { status.withLock { $0.dropped } }

    package func start(_ host: ComputerHost) async throws(PeripheralError) {
        hostBox.withLock { $0 = host }
        try await exportObjects()
        try await register()
        host.ready(name)
        let watchers = await watchBlueZ()
        tasks.withLock { $0 += watchers }
    }

    /// Unregisters the advertisement, the application and the agent, and closes every socket.
    package func stop() async {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        let adapter = BlueZ.adapterPath(configuration.adapter)
        let calls: [(String, String, String, String)] = [
            (adapter, BlueZ.advertisingManager, "UnregisterAdvertisement", PeripheralConfiguration.advertisementPath),
            (adapter, BlueZ.gattManager, "UnregisterApplication", PeripheralConfiguration.applicationPath),
            ("/org/bluez", BlueZ.agentManager, "UnregisterAgent", PeripheralConfiguration.agentPath),
        ]
        // Independent of each other: all at once.
        await withTaskGroup(of: Void.self) { group in
            for (path, interface, member, object) in calls {
                group.addTask { [connection] in
                    _ = try? await connection.call(destination: BlueZ.service, path: path, interface: interface, member: member,
                                                   [.objectPath(object)], timeout: .seconds(3))
                }
            }
        }
        status.withLock { state in
            state.channel?.close()
            for writer in state.writers { writer.close() }
        }
        connection.close()
    }

    // MARK: Writes

    static func central(_ options: DBusValue) throws(DBusError) -> String {
        guard let device = options.dictionaryValue?["device"]?.stringValue, let address = BlueZ.address(ofDevicePath: device) else {
            throw DBusError(name: "org.bluez.Error.Failed", message: "no device in the request's options")
        }
        return address
    }

    /// The characteristics a phone writes.
    enum Written: Sendable {
        case command, pairing, report
    }

    /// The D-Bus error a refused write is answered with (bluetoothd answers a write request with its ATT error:
    /// `NotAuthorized` is Insufficient Authorization, `Failed` the application error 0x80): a session that is not
    /// paired, or a pairing code refused, is `NotAuthorized`; any other refused command `Failed`. A refused report
    /// is answered with none, so even a report written with response succeeds at the ATT level: its refusal is only
    /// in the status (docs/protocol.md, "The hid transport").
    static func writeError(_ refusal: StatusError, on characteristic: Written) -> DBusError? {
        let unauthorized: Set<StatusError.Code> = [.notPaired, .wrongCode, .lockedOut, .codeExpired, .noCode]
        switch characteristic {
        case .report:
            return nil
        case .command, .pairing:
            let denied = StatusError.Code(rawValue: refusal.code).map(unauthorized.contains) ?? false
            let name = denied ? "org.bluez.Error.NotAuthorized" : "org.bluez.Error.Failed"
            return DBusError(name: name, message: refusal.message)
        }
    }

    func commandWritten(_ bytes: [UInt8], options: DBusValue) throws(DBusError) {
        let central = try Self.central(options)
        drainWriters()
        if case .refused(let error) = host.command(bytes, from: central),
           let failure = Self.writeError(error, on: .command)
        {
            throw failure
        }
    }

    func pairingWritten(_ bytes: [UInt8], options: DBusValue) throws(DBusError) {
        let central = try Self.central(options)
        let refusal: StatusError?
        do {
            refusal = try host.pairingWrite(bytes, by: central)
        } catch {
            // Not 6 ASCII digits: no attempt is counted, and no status is published.
            throw DBusError(name: "org.bluez.Error.InvalidValueLength", message: "\(error)")
        }
        if let refusal, let failure = Self.writeError(refusal, on: .pairing) { throw failure }
    }

    /// A socket pair for an acquisition, and the MTU bluetoothd gave in its options (23 when it gave none).
    private static func channel(_ options: DBusValue) throws(DBusError) -> (SocketChannel, theirs: Int32, mtu: Int) {
        let mtu = Int(options.dictionaryValue?["mtu"]?.integerValue ?? 23)
        do {
            let (channel, theirs) = try SocketChannel.pair()
            return (channel, theirs, mtu)
        } catch {
            throw DBusError(name: "org.bluez.Error.Failed", message: error.what)
        }
    }

    /// A write of the report characteristic (the hid transport), with or without response: a refusal is counted,
    /// logged and published as an error status, and the write itself succeeds (`writeError`).
    func reportWritten(_ bytes: [UInt8], options: DBusValue) throws(DBusError) {
        drainWriters()
        if let refusal = report(bytes, from: try Self.central(options)),
           let failure = Self.writeError(refusal, on: .report)
        {
            throw failure
        }
    }

    /// Applies what already waits on the acquired write sockets before a write that came over D-Bus. Writes without
    /// response and write requests reach us by two paths (the socket, a D-Bus call), and with EATT on different ATT
    /// bearers: a drag's last motion report and the release after it arrived in one connection event of the vm rig's
    /// radio, 0.14 ms apart and in order, and the release was applied first, leaving the button held. The phone
    /// sends nothing after a request until it is answered, so whatever waits here was written before it.
    private func drainWriters() {
        for writer in status.withLock({ $0.writers }) { writer.drain() }
    }

    @discardableResult
    private func report(_ bytes: [UInt8], from central: String) -> StatusError? {
        let outcome = host.processor.handlePointer(bytes, from: central, format: .hid)
        guard case .refused(let error) = outcome else { return nil }
        host.publishStatus(error: error)
        return error
    }

    /// What a read of the report characteristic returns, to any central, paired or not: a 6-byte report of the
    /// buttons the computer holds now (from any transport: a drag's left button held over tcp too), no motion, no
    /// wheel.
    static func reportValue(_ processor: CommandProcessor) -> [UInt8] {
        HIDReport(buttons: processor.heldButtons, dx: 0, dy: 0).encoded()
    }

    /// `AcquireWrite` of the command characteristic (each packet a command) or of the report characteristic (each
    /// packet a report): a socket the central's writes arrive on, until it closes.
    func acquireWrite(options: DBusValue, reports: Bool = false) throws(DBusError) -> [DBusValue] {
        let central = try Self.central(options)
        let (channel, theirs, mtu) = try Self.channel(options)
        let what = reports ? "report" : "command"
        status.withLock { $0.writers.append(channel) }
        channel.startReading(mtu: mtu, { [self] packet in
            if reports {
                report(packet, from: central)
            } else {
                _ = host.command(packet, from: central)
            }
        }, ended: { [self] in
            status.withLock { $0.writers.removeAll { $0 === channel } }
            channel.close()
            log.info("acquired \(what) write channel of \(central) closed")
            host.sessionEnded(central, reason: "\(what) write channel of \(central) closed")
        })
        log.info("central \(central) acquired the \(what) characteristic (MTU \(mtu))")
        return [.fileDescriptor(theirs), .uint16(UInt16(clamping: mtu))]
    }

    func acquireNotify(options: DBusValue) throws(DBusError) -> [DBusValue] {
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

    // MARK: Status (R5)

    /// Sends a status to the subscribed central: over the acquired notify socket (never blocking: the command
    /// path publishes an error status for every refused write, and a phone that floods writes while not reading
    /// notifications would otherwise stall it), else as a Value change; the latest status stays readable.
    package func deliver(status bytes: [UInt8]) {
        let (notifying, channel) = status.withLock { state in
            state.value = bytes
            return (state.notifying, state.channel)
        }
        if let channel {
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
