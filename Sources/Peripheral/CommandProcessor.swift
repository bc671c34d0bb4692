import CommandMapping
import Evdev
package import InputCodes
package import RemoteTouchProtocol
import Synchronization

/// The computer side's command path: decode, check the central is paired, map with the current mode, inject.
///
/// Every refusal is logged, answered with an error status (and, for a write with response, a D-Bus error),
/// and injects nothing; the next valid command works. Commands from all centrals and write paths pass one
/// lock, so frames never interleave.
package final class CommandProcessor: Sendable {
    /// What became of one write.
    package enum Outcome: Sendable, Equatable {
        /// `command` is nil for a pointer report.
        case injected(command: Command?, frames: [InputFrame], times: [MonotonicTime])
        case refused(StatusError)
    }

    private let sink: any InputSink
    package let pairing: PairingAuthority
    private let log: PeripheralLog
    private let mapper: Mutex<CommandMapper>
    private let handling = Mutex<[Duration]>([])
    /// At most this many handling times are kept (the newest).
    package static let handlingTimesKept = 100_000

    private let receipts: ReceiptLog?

    package init(sink: any InputSink, pairing: PairingAuthority, log: PeripheralLog, mode: ControlMode = .basicMouse,
                receipts: ReceiptLog? = nil)
    {
        self.sink = sink
        self.pairing = pairing
        self.log = log
        self.receipts = receipts
        mapper = Mutex(CommandMapper(mode: mode))
    }

    package var mode: ControlMode { mapper.withLock { $0.mode } }

    /// The mouse buttons held now (a drag's left button, a hid report's bits).
    package var heldButtons: MouseButtons {
        let held = mapper.withLock { $0.held }
        var buttons: MouseButtons = []
        if held.contains(.btnLeft) { buttons.insert(.left) }
        if held.contains(.btnRight) { buttons.insert(.right) }
        if held.contains(.btnMiddle) { buttons.insert(.middle) }
        return buttons
    }

    /// How long each injected command took from receipt to its last uinput write (the newest 100,000).
    package var handlingTimes: [Duration] { handling.withLock { $0 } }

    /// Handles one write of the command characteristic by `central` (its Bluetooth address).
    package func handle(_ bytes: [UInt8], from central: String) -> Outcome {
        let received = MonotonicTime.now()
        return recorded(process(bytes, from: central, received: received), received: received, payload: bytes)
    }

    /// Handles a command a TCP frame carried, decoded by the session that read it at `received` (so decoding the
    /// frame counts in the handling time). In the receipts its payload is the command's encoding, made after the
    /// uinput write: the same text a BLE write of it has.
    package func handle(_ command: Command, from session: String, received: MonotonicTime) -> Outcome {
        let payload = { command.encoded() }
        guard pairing.isPaired(session) else {
            let text = payload()
            return recorded(refuse(.notPaired, Self.notPaired(session), text), received: received, payload: text)
        }
        let outcome = inject(command: command, received: received, payload: payload) { mapper throws(MappingError) in
            try mapper.map(command)
        }
        return recorded(outcome, received: received, payload: payload())
    }

    /// Handles one pointer report by `session`: a 6-byte `HIDReport` (hid) or a 5-byte `UDPPacket` (udp, whose
    /// buttons byte is informational: only 0xAA movement is accepted). Same paired check, one mapper, one lock.
    /// In the receipts its payload is `PointerPayload.text`.
    package func handlePointer(_ bytes: [UInt8], from session: String, format: PointerPayload.Format) -> Outcome {
        let received = MonotonicTime.now()
        // The receipts' text of the report is made after the uinput write: it is not on the command's path.
        let payload = { Array(PointerPayload.text(bytes, format: format).utf8) }
        guard pairing.isPaired(session) else {
            let text = payload()
            return recorded(refuse(.notPaired, "\(session) is not paired: a \(format.rawValue) report from it injects nothing", text),
                            received: received, payload: text)
        }
        let input: PointerInput
        do {
            input = try PointerPayload.decode(bytes, format: format)
        } catch {
            let text = payload()
            return recorded(refuse(.invalidReport, error.description, text), received: received, payload: text)
        }
        let outcome = inject(received: received, payload: payload) { mapper throws(MappingError) in
            mapper.pointer(input, buttons: format == .hid)
        }
        return recorded(outcome, received: received, payload: payload())
    }

    private func recorded(_ outcome: Outcome, received: MonotonicTime, payload: [UInt8]) -> Outcome {
        if let receipts {
            if case .injected(_, _, let times) = outcome {
                receipts.record(received: received, written: times, payload: payload)
            } else {
                receipts.record(received: received, written: nil, payload: payload)
            }
        }
        return outcome
    }

    private func process(_ bytes: [UInt8], from central: String, received: MonotonicTime) -> Outcome {
        guard pairing.isPaired(central) else {
            return refuse(.notPaired, Self.notPaired(central), bytes)
        }
        let command: Command
        do {
            command = try Command.decode(bytes)
        } catch {
            return refuse(.invalidCommand, error.description, bytes)
        }
        return inject(command: command, received: received, payload: { bytes }) { mapper throws(MappingError) in try mapper.map(command) }
    }

    private static func notPaired(_ central: String) -> String {
        "\(central) is not paired: read the pairing characteristic and write the code shown on this computer"
    }

    /// Maps under the one lock and writes the frames to uinput.
    private func inject(command: Command? = nil, received: MonotonicTime, payload: () -> [UInt8],
                        _ map: (inout CommandMapper) throws(MappingError) -> [InputFrame]) -> Outcome
    {
        mapper.withLock { mapper -> Outcome in
            let frames: [InputFrame]
            do throws(MappingError) {
                frames = try map(&mapper)
            } catch {
                return refuse(.invalidCommand, error.message, payload())
            }
            do throws(EvdevError) {
                let times = try sink.emit(frames)
                if let last = times.last {
                    handling.withLock { handling in
                        if handling.count >= Self.handlingTimesKept { handling.removeFirst(handling.count / 2) }
                        handling.append(last - received)
                    }
                }
                return .injected(command: command, frames: frames, times: times)
            } catch {
                log.error("uinput write failed: \(error)")
                return .refused(StatusError(.injectionFailed, error.description))
            }
        }
    }

    /// A payload refused before it could be a command (a TCP frame that does not decode): logged and in the
    /// receipts as refused, like a refused write.
    package func refusedBeforeDecoding(_ bytes: [UInt8], code: StatusError.Code, message: String) -> StatusError {
        receipts?.record(received: .now(), written: nil, payload: bytes)
        if case .refused(let error) = refuse(code, message, bytes) { return error }
        return StatusError(code, message)
    }

    /// A pointer report refused before it reached a session (a udp packet from a source no paired session is
    /// bound to): in the receipts as refused; logged only when `logged` (the caller limits a flood's lines).
    package func refusedPointer(_ bytes: [UInt8], format: PointerPayload.Format, source: String, code: StatusError.Code, message: String,
                               logged: Bool)
    {
        let payload = Array(PointerPayload.text(bytes, format: format, source: source).utf8)
        receipts?.record(received: .now(), written: nil, payload: payload)
        if logged { _ = refuse(code, message, payload) }
    }

    /// Writes out the receipts still buffered.
    package func flushReceipts() {
        receipts?.flush()
    }

    /// Releases every held key and button (the central disconnected or the link dropped); returns what was
    /// released.
    @discardableResult
    package func releaseAll(reason: String) -> [InputFrame] {
        mapper.withLock { mapper in
            let frames = mapper.releaseAll()
            guard !frames.isEmpty else { return [] }
            do {
                _ = try sink.emit(frames)
                log.info("released \(frames.map(\.description).joined(separator: " ")): \(reason)")
            } catch {
                log.error("could not release held keys (\(reason)): \(error)")
            }
            return frames
        }
    }

    private func refuse(_ code: StatusError.Code, _ message: String, _ bytes: [UInt8]) -> Outcome {
        let shown = bytes.count > 64 ? String(decoding: bytes.prefix(64), as: UTF8.self) + "… (\(bytes.count) bytes)" : String(decoding: bytes, as: UTF8.self)
        log.warning("refused write (\(code.rawValue)): \(message); payload: \(shown.debugDescription)")
        return .refused(StatusError(code, message))
    }
}
