import CommandMapping
import Foundation
import GestureModel
package import InputCodes
package import RemoteTouchProtocol
import Records
import Synchronization

/// The computer in process, for `hil replay`: each write decoded, refused unless the phone paired, mapped to
/// frames stamped at once (no link, no kernel); the link going down releases what it holds. It shows the code
/// `123456` and locks pairing for `lockout` after 3 wrong codes.
package final class OfflineComputer: ComputerUnderTest {
    struct State {
        var mapper = CommandMapper()
        var frames: [EvdevFrame] = []
        var receipts: [StageBreakdown.Receipt] = []
        var paired = false
        var attemptsRemaining = 3
        var codeShown = false
        var lockedUntil: MonotonicTime?
        var lines: [(at: MonotonicTime, text: String)] = []
        var errors: [String] = []
        var commands = 0
        var frameCount = 0
        var totals: [EventCode: Int] = [:]
        var presses: [EventCode: Int] = [:]
    }

    static let code = "123456"
    private let state = Mutex(State())
    private let clock: any DriverClock
    private let origin: MonotonicTime

    private let lockout: Duration

    /// - Parameter lockout: how long pairing stays locked after 3 wrong codes (the computer's default is 5 minutes).
    package init(clock: any DriverClock, lockout: Duration = .seconds(300)) {
        self.clock = clock
        self.lockout = lockout
        origin = clock.now()
    }

    /// One line per write and per release: its time, its JSON and the frames it maps to.
    package var lines: [(at: MonotonicTime, text: String)] { state.withLock { $0.lines } }
    /// Commands that cannot be mapped, each with the reason.
    package var errors: [String] { state.withLock { $0.errors } }
    /// Commands injected, and frames written.
    package var counts: (commands: Int, frames: Int) { state.withLock { ($0.commands, $0.frameCount) } }

    /// Relative motion per axis and key presses, in code order: "REL_X 120", "BTN_LEFT×2".
    package var totals: (motion: [String], presses: [String]) {
        state.withLock { state in
            (state.totals.sorted { $0.key.code < $1.key.code }.map { "\($0.key) \($0.value)" },
             state.presses.sorted { $0.key.code < $1.key.code }.map { "\($0.key)×\($0.value)" })
        }
    }

    func stamp(_ at: MonotonicTime) -> String {
        String(format: "%9.1f ms", Double(at.nanoseconds - origin.nanoseconds) / 1e6)
    }

    /// A write arrives from the phone: its receipt is written as the real computer writes it (`ReceiptLine`, from
    /// the bytes), with the frames it injected, or none when it was refused.
    package func receive(_ bytes: [UInt8]) {
        let at = clock.now()
        let text = String(decoding: bytes, as: UTF8.self)
        state.withLock { state in
            let (written, outcome) = handle(bytes, text: text, at: at, &state)
            state.receipts.append(ReceiptLine(received: at.nanoseconds, written: written, payload: bytes))
            state.lines.append((at, "\(stamp(at))  \(outcome)"))
        }
    }

    /// A command from another session, which is not paired: refused, as the computer refuses it.
    package func receiveFromAnotherSession(_ bytes: [UInt8]) {
        let at = clock.now()
        state.withLock { state in
            state.receipts.append(ReceiptLine(received: at.nanoseconds, written: nil, payload: bytes))
            state.lines.append((at, "\(stamp(at))  \(String(decoding: bytes, as: UTF8.self))  →  refused, another session that is not paired"))
        }
    }

    /// A pointer report arrives (the hid or udp transport): mapped as the real computer maps it when its source is a
    /// paired session's, else refused.
    package func receivePointer(_ bytes: [UInt8], format: PointerPayload.Format, bound: Bool) {
        let at = clock.now()
        let text = PointerPayload.text(bytes, format: format)
        state.withLock { state in
            var written: [UInt64]?
            var outcome = "\(text)  →  refused, no paired session is bound to its source"
            if bound && state.paired, let input = try? PointerPayload.decode(bytes, format: format) {
                let frames = state.mapper.pointer(input, buttons: format == .hid)
                record(frames, at: at, &state)
                written = frames.map { _ in at.nanoseconds }
                outcome = "\(text)  →  " + (frames.isEmpty ? "(no events)" : frames.map(\.description).joined(separator: " "))
            }
            state.receipts.append(ReceiptLine(received: at.nanoseconds, written: written, payload: Array(text.utf8)))
            state.lines.append((at, "\(stamp(at))  \(outcome)"))
        }
    }

    /// The frames' write times (nil when refused) and the line that says what happened.
    private func handle(_ bytes: [UInt8], text: String, at: MonotonicTime, _ state: inout State) -> ([UInt64]?, String) {
        guard let command = try? Command.decode(bytes) else { return (nil, "\(bytes.count) bytes  →  refused, not a command") }
        guard state.paired else { return (nil, "\(text)  →  refused, the phone is not paired") }
        state.commands += 1
        do {
            let frames = try state.mapper.map(command)
            record(frames, at: at, &state)
            let shown = frames.isEmpty ? "(no events)" : frames.map(\.description).joined(separator: " ")
            return (frames.map { _ in at.nanoseconds }, "\(text)  →  \(shown)")
        } catch {
            state.errors.append("command at \(stamp(at).trimmingCharacters(in: .whitespaces)) cannot be mapped: \(error)")
            return (nil, "\(text)  →  REFUSED: \(error)")
        }
    }

    private func record(_ frames: [InputFrame], at: MonotonicTime, _ state: inout State) {
        // The driver's clock never goes back, so `frames` stays sorted by time and `frames(since:)` can search it.
        precondition(state.frames.last.map { $0.time <= at } ?? true,
                     "a frame stamped before the last one: the clock went back")
        state.frameCount += frames.count
        state.frames += frames.map { EvdevFrame(frame: $0, time: at) }
        for event in frames.flatMap(\.events) {
            if event.code.type == .rel { state.totals[event.code, default: 0] += Int(event.value) }
            if event.code.type == .key && event.value == 1 { state.presses[event.code, default: 0] += 1 }
        }
    }

    /// The link went down: the computer lets go of everything it holds.
    func linkDown(_ why: String) {
        let at = clock.now()
        state.withLock { state in
            let frames = state.mapper.releaseAll()
            record(frames, at: at, &state)
            let shown = frames.isEmpty ? "holds nothing" : "releases " + frames.map(\.description).joined(separator: " ")
            state.lines.append((at, "\(stamp(at))  \(why): the computer \(shown)"))
        }
    }

    func showCode() {
        state.withLock { $0.codeShown = true }
    }

    func enter(_ digits: String) -> (refusal: String?, status: PairingStatus) {
        let now = clock.now()
        return state.withLock { state in
            if let until = state.lockedUntil {
                if now < until {
                    let left = Int(((until - now).milliseconds / 1000).rounded(.up))
                    return ("locked out", PairingStatus(state: .lockedOut, attemptsRemaining: 0, secondsRemaining: left))
                }
                state.lockedUntil = nil
                state.attemptsRemaining = 3
            }
            if digits == Self.code && state.codeShown {
                state.paired = true
                state.attemptsRemaining = 3
                return (nil, PairingStatus(state: .paired, attemptsRemaining: 3))
            }
            state.attemptsRemaining -= 1
            guard state.attemptsRemaining == 0 else {
                return ("wrong code", PairingStatus(state: .awaitingCode, attemptsRemaining: state.attemptsRemaining))
            }
            state.lockedUntil = now + lockout
            return ("wrong code", PairingStatus(state: .lockedOut, attemptsRemaining: 0))
        }
    }

    /// The frames stamped at or after `since`, found by binary search (they are in time order): the driver asks for
    /// a segment's frames every 5 ms of virtual time while it judges it, and going through every frame of the
    /// scenario each time made a long replay quadratic (issue 39).
    package func frames(since: MonotonicTime) -> [EvdevFrame] {
        state.withLock { state in Array(state.frames[state.frames.partitioningIndex { $0.time >= since }...]) }
    }

    package var droppedEvents: Bool { false }

    package func heldKeys() -> [String] {
        state.withLock { $0.mapper.held.map(\.description) }
    }

    package func receipts() -> [StageBreakdown.Receipt] {
        state.withLock { $0.receipts }
    }

    package func pairingCode() -> String? {
        state.withLock { $0.codeShown ? Self.code : nil }
    }

    package var log: String { "" }

    /// Frames and receipts only grow, and the code is shown once: their sum counts the changes.
    package var changeCount: UInt64 {
        state.withLock { UInt64($0.frames.count + $0.receipts.count + ($0.codeShown ? 1 : 0)) }
    }

    /// Everything happens at once in replay: a change not seen yet returns at once, else the virtual clock moves
    /// to `deadline`.
    package func awaitChange(after seen: UInt64, until deadline: MonotonicTime) async throws {
        if changeCount == seen { try await clock.sleep(until: deadline) }
    }

    package func restart(whileStopped: () async throws -> Void) async throws -> String {
        linkDown("the computer restarts")
        // A new process: a new mapper (basic mouse mode, no remainders), as the rig's computer starts again.
        state.withLock { state in
            state.codeShown = false
            state.mapper = CommandMapper()
        }
        try await whileStopped()
        return ""
    }
}
