import DBus
import Evdev
import Foundation
import System

/// The computer side of RemoteTouch on Linux: a uinput device the commands are injected through, the host
/// every endpoint shares (`ComputerHost`: command path, pairing, status), and the BLE endpoint (`GattEndpoint`).
///
/// Start order follows R10: the uinput device first, so a machine where events cannot be injected refuses
/// to start instead of running while dropping events.
package final class RemoteTouchPeripheral: Sendable {
    package let host: ComputerHost
    private let gatt: GattEndpoint?

    package var configuration: PeripheralConfiguration { host.configuration }
    package var log: PeripheralLog { host.log }
    package var pairing: PairingAuthority { host.pairing }
    package var processor: CommandProcessor { host.processor }
    /// The uinput device's node (`/dev/input/eventN`), for verifiers.
    package var devnode: String? { host.devnode }

    private init(host: ComputerHost, gatt: GattEndpoint?) {
        self.host = host
        self.gatt = gatt
    }

    /// Creates the uinput device, connects to the bus, exports and registers everything.
    /// - Throws: `PeripheralError` naming what failed (the uinput device with the R10 advice, the adapter,
    ///   the D-Bus error name of a refused registration) and what to do.
    package static func start(_ configuration: PeripheralConfiguration, log: PeripheralLog) async throws(PeripheralError)
        -> RemoteTouchPeripheral
    {
        // Held (--start-when): connected to the bus already, which registers nothing; the uinput device and
        // bluetoothd wait for the release.
        let ble = configuration.endpoints.contains(.ble)
        var early: DBusConnection?
        if let signal = configuration.startSignal {
            if ble { early = try await connectBus(configuration) }
            log.info("started; holding until \(signal.path) exists")
            let held = try await signal.wait()
            log.info("released after \(Int(held / .milliseconds(1))) ms")
        }
        let device: UinputDevice
        do {
            device = try UinputDevice(name: configuration.uinputName, uinputPath: configuration.uinputPath)
        } catch {
            throw PeripheralError(
                .uinput, "cannot inject input events: \(error.what) (R10: without it the peripheral would run while dropping every command)",
                hint: error.hint)
        }
        log.info("uinput device \"\(configuration.uinputName)\" at \(device.devnode ?? "?")")
        let processor = CommandProcessor(
            sink: UinputSink(device), pairing: try pairingAuthority(configuration, log: log), log: log,
            receipts: try receiptLog(configuration))
        let host = ComputerHost(
            configuration: configuration, log: log, pairing: processor.pairing, processor: processor, devnode: device.devnode)
        var gatt: GattEndpoint?
        if ble {
            let connection: DBusConnection
            if let early { connection = early } else { connection = try await connectBus(configuration) }
            try await ownName(configuration, on: connection)
            gatt = GattEndpoint(configuration: configuration, log: log, connection: connection)
        }
        do {
            if let gatt { try await host.start(gatt) }
            if configuration.endpoints.contains(.tcp) { try await host.start(TCPEndpoint(settings: configuration.tcp, log: log)) }
            if configuration.endpoints.contains(.udp) { try await host.start(TCPEndpoint(settings: configuration.udp, log: log)) }
        } catch {
            await host.stop()
            throw error
        }
        return RemoteTouchPeripheral(host: host, gatt: gatt)
    }

    private static func pairingAuthority(_ configuration: PeripheralConfiguration, log: PeripheralLog) throws(PeripheralError)
        -> PairingAuthority
    {
        let codeFile = configuration.pairingCodeFile
        do {
            return try PairingAuthority(
                settings: configuration.pairing, stateFile: configuration.stateDirectory + "/pairing.json",
                onCodeShown: { code, lifetime in
                    log.info("PAIRING CODE \(code.digits) (valid \(lifetime.components.seconds) s): enter it on the phone")
                    if let codeFile { StateFile.writePairingCode(code, to: codeFile) }
                })
        } catch {
            throw PeripheralError(.pairingState, "\(error)")
        }
    }

    private static func receiptLog(_ configuration: PeripheralConfiguration) throws(PeripheralError) -> ReceiptLog? {
        guard let file = configuration.receiptsFile else { return nil }
        do {
            return try ReceiptLog(path: file)
        } catch {
            throw PeripheralError(.receiptsLog, "cannot create the receipts log \(file): \(FileAccess.reason(of: error))")
        }
    }

    /// The bus.
    private static func connectBus(_ configuration: PeripheralConfiguration) async throws(PeripheralError) -> DBusConnection {
        do {
            return try await DBusConnection.connect(configuration.bus)
        } catch {
            throw PeripheralError(.bus, "cannot connect to the \(configuration.bus) bus: \(error)",
                                  hint: "is dbus running? `hil doctor` checks the rigs")
        }
    }

    /// The well-known name, when one is asked for.
    private static func ownName(_ configuration: PeripheralConfiguration, on connection: DBusConnection) async throws(PeripheralError) {
        guard let name = configuration.busName else { return }
        do {
            try await connection.requestName(name)
        } catch {
            throw PeripheralError(
                .bus, "cannot own \(name) on the \(configuration.bus) bus: \(error.message) (\(error.name))",
                hint: error.name == "org.freedesktop.DBus.Error.NameTaken"
                    ? "another hil peripheral is running on this box"
                    : "install Rigs/hardware/dbus/org.remotetouch.hil.conf and be in group hil (Rigs/hardware/install.sh)")
        }
    }

    /// Unregisters from bluetoothd and releases everything held.
    package func stop() async {
        await host.stop()
        let dropped = gatt?.droppedStatus ?? 0
        log.info("stopped; \(Self.summary(processor.handlingTimes))"
            + (dropped > 0 ? "; \(dropped) status notification(s) dropped (the phone did not read them)" : ""))
    }

    /// `handled 60 commands, receipt → uinput write: p50 1.36 ms, p99 4.95 ms, max 4.95 ms`
    static func summary(_ times: [Duration]) -> String {
        guard !times.isEmpty else { return "handled 0 commands" }
        let sorted = times.sorted()
        func ms(_ p: Double) -> String {
            let value = sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
            return String(format: "%.2f ms", Double(value.components.attoseconds) / 1e15 + Double(value.components.seconds) * 1000)
        }
        return "handled \(times.count) command\(times.count == 1 ? "" : "s"), receipt → uinput write: p50 \(ms(0.5)), p99 \(ms(0.99)), max \(ms(1.0))"
    }
}
