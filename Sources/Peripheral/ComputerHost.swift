import Foundation
package import RemoteTouchProtocol
package import InputCodes
import Records
import Synchronization
import Waiting

/// What every endpoint of the computer shares: the one command path (`CommandProcessor`: decode, paired?, map,
/// inject), pairing with the 6-digit code and its lockout, held keys released when a session ends, status every
/// 2 s (R5) and at once after a refusal, the receipts flushed every 250 ms, and the ready file.
package final class ComputerHost: Sendable {
    package let configuration: PeripheralConfiguration
    package let log: PeripheralLog
    package let pairing: PairingAuthority
    package let processor: CommandProcessor
    /// The uinput device's node (`/dev/input/eventN`), for verifiers.
    package let devnode: String?
    private let endpoints: Mutex<[any CommandEndpoint]> = Mutex([])
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// The endpoints serving so far, and how many times the ready file was written.
    private let registrations = Mutex<(count: Int, serving: [String])>((0, []))

    package init(configuration: PeripheralConfiguration, log: PeripheralLog, pairing: PairingAuthority,
                processor: CommandProcessor, devnode: String?)
    {
        self.configuration = configuration
        self.log = log
        self.pairing = pairing
        self.processor = processor
        self.devnode = devnode
    }

    /// Starts an endpoint; the host's timers run once the first one serves.
    package func start(_ endpoint: any CommandEndpoint) async throws(PeripheralError) {
        endpoints.withLock { $0.append(endpoint) }
        try await endpoint.start(self)
        if endpoints.withLock({ $0.count }) == 1 {
            startStatusTimer()
            startReceiptsFlush()
        }
    }

    /// Stops every endpoint and the timers, releases everything held, writes out the receipts.
    package func stop() async {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        processor.releaseAll(reason: "peripheral stopping")
        for endpoint in endpoints.withLock({ $0 }) { await endpoint.stop() }
        processor.flushReceipts()
        if let file = configuration.readyFile { try? FileManager.default.removeItem(atPath: file) }
    }

    // MARK: What endpoints call

    /// A write of a command by `session` (a central's address, a connection's peer); a refusal is answered with
    /// an error status.
    package func command(_ bytes: [UInt8], from session: String) -> CommandProcessor.Outcome {
        let outcome = processor.handle(bytes, from: session)
        if case .refused(let error) = outcome { publishStatus(error: error) }
        return outcome
    }

    /// A command a TCP frame carried, read by `session` at `received`; a refusal is answered with an error status.
    package func command(_ command: Command, from session: String, received: MonotonicTime) -> CommandProcessor.Outcome {
        let outcome = processor.handle(command, from: session, received: received)
        if case .refused(let error) = outcome { publishStatus(error: error) }
        return outcome
    }

    /// A pairing read: a fresh code is shown when `session` is not paired; the pairing state's bytes.
    package func pairingRead(by session: String) -> [UInt8] {
        pairing.read(by: session, now: Date().timeIntervalSince1970).encoded()
    }

    /// A pairing write; nil when `session` is paired, else the refusal (also sent as an error status).
    /// - Throws: the decoding error of a malformed code (not 6 digits), which costs no attempt.
    package func pairingWrite(_ bytes: [UInt8], by session: String) throws -> StatusError? {
        let outcome: PairingAuthority.Outcome
        do {
            outcome = try pairing.write(bytes, by: session, now: Date().timeIntervalSince1970)
        } catch {
            log.warning("pairing write from \(session) refused: \(error)")
            throw error
        }
        let refusal: StatusError
        switch outcome {
        case .paired, .alreadyPaired:
            log.info("central \(session) paired")
            return nil
        case .wrongCode(let left): refusal = StatusError(.wrongCode, "wrong pairing code; \(left) attempt(s) left")
        case .lockedOut(let seconds):
            refusal = StatusError(.lockedOut, "too many wrong codes: pairing locked for \(seconds) s")
        case .codeExpired:
            refusal = StatusError(.codeExpired, "the pairing code expired: read the pairing characteristic for a new one")
        case .noCodeRequested:
            refusal = StatusError(.noCode, "no pairing code is active: read the pairing characteristic first")
        }
        log.warning("pairing by \(session) refused: \(refusal.message)")
        publishStatus(error: refusal)
        return refusal
    }

    /// A session ended (a central disconnected, a write channel closed, the transport's service went away):
    /// the computer lets go of every key and button it holds.
    package func sessionEnded(_ session: String, reason: String) {
        processor.releaseAll(reason: reason)
    }

    /// An endpoint serves (again): the ready file says so, for whoever waits for this computer. It is first written
    /// once every endpoint of `configuration.endpoints` serves, so a client that waits for the file never finds
    /// an endpoint still starting; each later call (the ble endpoint registered again after a bluetoothd restart)
    /// writes it again with `registrations` one higher.
    package func ready(_ endpoint: String) {
        let expected = configuration.endpoints.map(\.rawValue)
        let (count, serving) = registrations.withLock { state in
            if !state.serving.contains(endpoint) { state.serving.append(endpoint) }
            if expected.allSatisfy(state.serving.contains) { state.count += 1 }
            return state
        }
        guard count > 0, let file = configuration.readyFile else { return }
        let record = ReadyRecord(
            pid: Int(getpid()), adapter: configuration.adapter, uinputDevice: devnode, endpoints: serving, registrations: count)
        do {
            try record.write(to: file)
        } catch {
            log.error("cannot write the ready file \(file): \(error)")
        }
    }

    // MARK: Status (R5)

    /// Sends a status to every endpoint's subscribers: periodically, and at once with `error` after a refusal.
    package func publishStatus(error: StatusError?) {
        let data = StatusData(
            batteryLevel: BatteryLevel.read() ?? configuration.fallbackBatteryLevel, unixTime: Date().timeIntervalSince1970,
            connectionQuality: 100, error: error)
        let bytes = data.encoded()
        for endpoint in endpoints.withLock({ $0 }) { endpoint.deliver(status: bytes) }
    }

    private func startStatusTimer() {
        let interval = configuration.statusInterval
        let task = Task { [self] in
            await Pace.every(interval) {
                publishStatus(error: nil)
                return true
            }
        }
        tasks.withLock { $0.append(task) }
    }

    /// Writes buffered receipts out every 250 ms, so a test rig can follow them while the peripheral runs (the
    /// last lines of a burst would otherwise wait for the next 256 commands or the stop).
    private func startReceiptsFlush() {
        let task = Task { [processor] in
            await Pace.every(.milliseconds(250)) {
                processor.flushReceipts()
                return true
            }
        }
        tasks.withLock { $0.append(task) }
    }
}
