import DBus
import Foundation
package import GestureScript
package import InputCodes
package import RemoteTouchProtocol
import ScenarioDriver
import Synchronization
package import Verifier
package import RigControl
import System
import Waiting

/// The phone's BLE link over BlueZ on the rig's central adapter: writes over D-Bus or the `AcquireWrite` socket,
/// pairing through the pairing characteristic, status notifications, and the link's faults done to the real
/// radio (an adapter powered off, bluetoothd restarted).
package final class BLEPhoneLink: PhoneLink, RigFaults {
    package struct Settings: Sendable {
        package var peripheralAdapter: String
        package var writePath: WritePath
        package var latencyScale: Double
        /// The rig's controllers are btvirt's emulated ones (see `EmulatedRadio`).
        package var emulatedControllers: Bool
        /// Connect only to the computer's adapter's address: other lanes' computers advertise too.
        package var onlyThisComputer = false
        /// The hid transport: what a pointer report can say goes as 6-byte reports on the report characteristic
        /// (write without response); the rest as JSON commands on the command characteristic.
        package var reports = false
        /// The vm rig's radio bridges, for `radio` steps; nil on a rig without them.
        package var radio: RunningRig.Radio?
        /// The links' supervision timeout the rig's bluetoothd asks for, which an interval change keeps.
        package var supervisionTimeoutMs = ConnectionUpdate.defaultSupervisionTimeoutMs

        package init(
            peripheralAdapter: String, writePath: WritePath, latencyScale: Double, emulatedControllers: Bool,
            onlyThisComputer: Bool = false, reports: Bool = false
        ) {
            self.peripheralAdapter = peripheralAdapter
            self.writePath = writePath
            self.latencyScale = latencyScale
            self.emulatedControllers = emulatedControllers
            self.onlyThisComputer = onlyThisComputer
            self.reports = reports
        }

        /// The settings of a phone on `rig`'s lane, as a scenario runs it.
        package init(rig: RunningRig, peripheralAdapter: String, writePath: WritePath, onlyThisComputer: Bool, reports: Bool) {
            self.init(peripheralAdapter: peripheralAdapter, writePath: writePath, latencyScale: rig.latencyScale,
                      emulatedControllers: rig.emulatedControllers, onlyThisComputer: onlyThisComputer, reports: reports)
            radio = rig.radio
            supervisionTimeoutMs = rig.supervisionTimeoutMs
        }
    }

    package let central: BlueZCentral
    package let settings: Settings
    package let statusWatcher = StatusWatcher()
    /// The scenario's `radio` steps (`LinkRadio`).
    let radio: LinkRadio
    /// Why the computer's adapter could not be given the kernel's maximum interval at connect, if it could not
    /// (`ConnectionUpdate.acceptPhoneIntervals`): named when an interval step is refused.
    let computerMaximumProblem = Mutex<String?>(nil)
    /// `buttons`: the bitmap of the last report sent (hid).
    /// `primed`: the connection's first writes were answered (`openFastPath`); until then even the `unconfirmed` style
    /// waits for answers, as bluetoothd 5.66 corrupts a value written while it acquires the computer's socket.
    private let state = Mutex<(remote: BlueZCentral.Peripheral?, fd: FileDescriptor?, translator: PointerTranslator, buttons: MouseButtons,
                               primed: Bool)>((nil, nil, PointerTranslator(), [], false))

    /// Starts scanning at once: the phone scans before the computer advertises (see `BlueZCentral.startDiscovery`).
    ///
    /// First the phone forgets every device its adapter knows, so a scenario starts from a phone that knows no
    /// computer whatever ran before on the rig. A device object left by another tool (`hil bench --reference`'s
    /// Python peripheral, a test's client) keeps BlueZ's cache of that computer's services (bluetoothd caches them
    /// for unbonded devices too), which is stale once another GATT application serves at the same address.
    /// Discovery found that object, the phone connected and found the cached characteristics, and they vanished
    /// under its first read or write as BlueZ discovered the services afresh (`… doesn't exist`, UnknownObject):
    /// in one guest, `hil bench --reference` then a one-tap `hil run`, four times, made 3 of the 4 runs an error
    /// before this, none after.
    package init(centralAdapter: String, settings: Settings) async throws {
        let connection = try await DBusConnection.connect(.system)
        var address: String?
        if settings.onlyThisComputer {
            address = try await BlueZCentral(connection: connection, adapter: centralAdapter).address(of: settings.peripheralAdapter)
        }
        central = BlueZCentral(connection: connection, adapter: centralAdapter, computerAddress: address)
        self.settings = settings
        radio = LinkRadio(settings.radio)
        try await central.forgetAllDevices()
        try await central.startDiscovery()
    }

    deinit {
        closeFastPath()
        statusWatcher.stop()
    }

    /// The computer's device, once connected.
    package var remote: BlueZCentral.Peripheral? { state.withLock { $0.remote } }

    /// The computer's device found again (after a restart of bluetoothd or of the computer: new object paths).
    package func replace(_ found: BlueZCentral.Peripheral) {
        state.withLock { $0.remote = found }
    }

    /// The computer's device, or the error that the phone is not connected.
    package func connected() throws -> BlueZCentral.Peripheral {
        guard let remote else { throw LinkError(.link, "the phone is not connected to the computer") }
        return remote
    }

    package func connect() async throws -> String {
        let refused = ConnectionUpdate.acceptPhoneIntervals(on: settings.peripheralAdapter)
        computerMaximumProblem.withLock { $0 = refused }
        let found = try await central.connectToRemoteTouch(scanning: true)
        state.withLock { state in
            state.remote = found
            state.primed = false
        }
        return found.address
    }

    package func send(_ command: Command, confirmed: Bool) async throws -> [String] {
        let remote = try connected()
        if settings.reports, let inputs = state.withLock({ $0.translator.translate(command) }) {
            let reports = inputs.flatMap { $0.reports() }
            try await sendReports(reports, to: remote, what: command.name)
            return reports.map { PointerPayload.text($0.encoded(), format: .hid) }
        }
        let bytes = command.encoded()
        try await writeCommand(bytes, to: remote, confirmed: confirmed, what: command.name)
        return [String(decoding: bytes, as: UTF8.self)]
    }

    package func sendMalformed(_ bytes: [UInt8]) async throws -> [String] {
        try await writeCommand(bytes, to: try connected(), confirmed: false, what: "a malformed write")
        return [String(decoding: bytes, as: UTF8.self)]
    }

    /// A `send` step's item as it is: a command on the command characteristic (never turned into reports), a report
    /// on the report characteristic (hid only); a udp packet has no way over BLE.
    package func sendRecorded(_ payload: SendPayload, confirmed: Bool) async throws -> [String] {
        let remote = try connected()
        switch payload {
        case .command(let command):
            try await writeCommand(command.encoded(), to: remote, confirmed: confirmed, what: command.name)
        case .report(let report):
            guard settings.reports else {
                throw LinkError(.wrongTransport, "a send step's report items go to the hid transport's report characteristic; this run is ble (the scenario's run.transports should say [\"hid\"])")
            }
            try await sendReports([report], to: remote, what: "report")
        case .packet:
            throw LinkError(.wrongTransport, "a send step's packet items go to the udp transport's movement port; this run is \(settings.reports ? "hid" : "ble")")
        }
        return [payload.description]
    }

    /// One write of the command characteristic: on the `AcquireWrite` socket when open and unconfirmed, else over
    /// D-Bus, with response when the step asks for it or the write style always does (`requests`), without when the
    /// style never does (`unconfirmed`, once the connection's first write is answered: `openFastPath`).
    private func writeCommand(_ bytes: [UInt8], to remote: BlueZCentral.Peripheral, confirmed: Bool, what: String) async throws {
        let (fd, primed) = state.withLock { ($0.fd, $0.primed) }
        if let fd, !confirmed {
            try AcquiredSocket.write(fd.rawValue, bytes, what: what)
        } else {
            try await central.write(remote.command, bytes, withResponse: withResponse(confirmed, primed: primed))
        }
    }

    /// Whether a write goes with response in this run's write style; `asked`: the step or the report's button change
    /// asks for it.
    private func withResponse(_ asked: Bool, primed: Bool = true) -> Bool {
        switch settings.writePath {
        case .requests: true
        case .unconfirmed: !primed
        case .dbus, .fd: asked
        }
    }

    /// The hid transport's reports, each one write without response over D-Bus.
    ///
    /// A report that changes the buttons goes as a write request, and the next waits for its answer: bluetoothd
    /// spreads writes without response over its 3 ATT channels (EATT), and a click's press and release sent 0.4 ms
    /// apart arrived swapped (the computer saw the release first and then held the button). Motion stays without
    /// response.
    private func sendReports(_ reports: [HIDReport], to remote: BlueZCentral.Peripheral, what: String) async throws {
        guard let characteristic = remote.report else {
            throw LinkError(.computer, "the computer has no report characteristic (\(RemoteTouchService.reportUUID)): the hid transport needs a computer that serves it")
        }
        for report in reports {
            let changesButtons = state.withLock { state in
                defer { state.buttons = report.buttons }
                return state.buttons != report.buttons
            }
            try await central.write(characteristic, report.encoded(), withResponse: withResponse(changesButtons))
        }
    }

    package func openFastPath() async throws {
        // A new connection starts from a fresh report state: the computer let go of every button when the link went.
        state.withLock { state in
            state.translator = PointerTranslator()
            state.buttons = []
        }
        if settings.reports { try await primeReports() }
        state.withLock { $0.primed = true }
        guard settings.writePath == .fd else { return }
        let remote = try connected()
        let fd = try await central.acquireWrite(remote.command).fd
        state.withLock { $0.fd = FileDescriptor(owning: fd) }
        // The report characteristic is not acquired: BlueZ refuses D-Bus writes to an acquired characteristic ("Write
        // acquired"), and button changes go as write requests (sendReports).
    }

    /// The first report of a connection is a neutral one, and the next wait for a read of the report characteristic:
    /// bluetoothd acquires the computer's write socket on that first write command and answers the read after it,
    /// so no report races the acquisition (see `GattEndpoint.reportInterface`).
    private func primeReports() async throws {
        let remote = try connected()
        guard let report = remote.report else { return }
        try await central.write(report, HIDReport(dx: 0, dy: 0).encoded(), withResponse: false)
        _ = try await central.read(report)
    }

    package func closeFastPath() {
        state.withLock { state in
            defer { state.fd = nil; state.primed = false }
            return state.fd
        }?.close()
    }

    package func requestPairing() async throws {
        _ = try await central.read(try connected().pairing)
    }

    package func enterCode(_ digits: String) async throws -> PairingObservation {
        let remote = try connected()
        var refusal: String?
        do {
            try await central.write(remote.pairing, Array(digits.utf8), withResponse: true)
        } catch {
            refusal = error.dbusName.map { "\($0): \(error.message)" } ?? error.message
        }
        let bytes = try await central.read(remote.pairing)
        do {
            return PairingObservation(refusal: refusal, status: try PairingStatus.decode(bytes))
        } catch {
            throw LinkError(.pairing, "the pairing characteristic's value is not a PairingStatus: \(error) (\(String(decoding: bytes, as: UTF8.self)))", cause: error)
        }
    }

    package func watchStatus() async {
        guard let remote else { return }
        await statusWatcher.watch(central, remote)
    }

    package func statuses(from start: MonotonicTime, to end: MonotonicTime) -> [StatusObservation] {
        statusWatcher.received(from: start, to: end)
    }

    package var statusCount: Int { statusWatcher.count }

    package func reconnect(timeout: Duration) async -> String? {
        guard let remote else { return "the phone knows no computer" }
        do {
            try await central.reconnect(remote, timeout: timeout)
            return nil
        } catch {
            return "\(error)"
        }
    }

    package func disconnect() async throws {
        let remote = try connected()
        try await central.disconnect(remote)
        try await waitUntilDisconnected(remote, what: "the disconnect")
    }

    /// Disconnects, forgets the computer (its cached services are stale: reading them after the restart fails
    /// with UnknownObject) and scans, so the restarted computer's first advertisement is seen.
    package func forgetComputer() async throws {
        let remote = try connected()
        if await central.isConnected(remote) {
            try await central.disconnect(remote)
            try await waitUntilDisconnected(remote, what: "the phone's disconnect while the computer restarted")
        }
        try await central.forget(remote)
        try await central.startDiscovery()
    }

    package func connectAgain(timeout: Duration) async -> String? {
        do {
            let found = try await central.connectToRemoteTouch(timeout: timeout, scanning: true)
            state.withLock { $0.remote = found }
            return nil
        } catch {
            return "\(error)"
        }
    }

    package func waitUntilDisconnected(_ remote: BlueZCentral.Peripheral, what: String, within: Duration = .seconds(10)) async throws {
        guard try await central.waitUntilDisconnected(remote, timeout: within) else {
            throw LinkError(.timeout, "the central did not see \(what) within \(within)")
        }
    }

    /// Powers an adapter on and waits until it is, trying up to 3 times: btvirt's emulated controller sometimes
    /// times out a command while the kernel powers it on with an advertisement to resume (dmesg: `Opcode 0x2006
    /// failed: -22`, `command 0x2006 tx timeout`, then `Opcode 0x0c03 failed: -110`), and that power-on fails.
    /// Returns the try that worked.
    package static func powerOn(_ adapter: String, _ central: BlueZCentral) async throws -> Int {
        do {
            return try await Retry.times(3, pause: .milliseconds(500)) { _ in
                try await central.setPowered(adapter, true)
                try await central.waitUntilPowered(adapter, true, timeout: .seconds(10))
            }.attempt
        } catch let error as CancellationError {
            throw error
        } catch {
            throw LinkError(.link, "\(adapter) did not power on in 3 tries: \(error)", cause: error)
        }
    }
}
