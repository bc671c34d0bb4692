import GestureScript
import InputCodes
import RemoteTouchProtocol
import ScenarioDriver
import Synchronization
import Verifier

/// A phone link for driver tests: writes reach an in-process computer (`OfflineLink`), but reconnecting can be
/// made to fail, and writes can be delivered out of order (each pair of writes swapped).
final class FakeLink: PhoneLink, RigFaults {
    struct State {
        var reconnectsToFail = 0
        var reconnectTries = 0
        var swapPairs = false
        var heldBack: Command?
        var sent: [String] = []
    }

    let inner: OfflineLink
    let computer: OfflineComputer
    let state = Mutex(State())

    init(computer: OfflineComputer, clock: any DriverClock, reconnectsToFail: Int = 0, swapPairs: Bool = false) {
        inner = OfflineLink(computer: computer, clock: clock)
        self.computer = computer
        state.withLock {
            $0.reconnectsToFail = reconnectsToFail
            $0.swapPairs = swapPairs
        }
    }

    var reconnectTries: Int { state.withLock { $0.reconnectTries } }
    var sent: [String] { state.withLock { $0.sent } }

    func connect() async throws -> String { try await inner.connect() }

    func send(_ command: Command, confirmed: Bool) async throws -> [String] {
        let text = String(decoding: command.encoded(), as: UTF8.self)
        state.withLock { $0.sent.append(text) }
        let swap = state.withLock { $0.swapPairs } && !confirmed
        guard swap else { return try await inner.send(command, confirmed: confirmed) }
        if let earlier = state.withLock({ state in defer { state.heldBack = nil }; return state.heldBack }) {
            _ = try await inner.send(command, confirmed: false)
            _ = try await inner.send(earlier, confirmed: false)
        } else {
            state.withLock { $0.heldBack = command }
        }
        return [text]
    }

    func sendMalformed(_ bytes: [UInt8]) async throws -> [String] {
        state.withLock { $0.sent.append(String(decoding: bytes, as: UTF8.self)) }
        return try await inner.sendMalformed(bytes)
    }

    /// Delivers a write held back for swapping (when the computer is looked at: it arrives late, not never).
    func flushHeldBack() {
        if let earlier = state.withLock({ state in defer { state.heldBack = nil }; return state.heldBack }) {
            computer.receive(earlier.encoded())
        }
    }

    func openFastPath() async throws {}
    func closeFastPath() {}
    func requestPairing() async throws { try await inner.requestPairing() }
    func enterCode(_ digits: String) async throws -> PairingObservation { try await inner.enterCode(digits) }
    func watchStatus() async {}
    func statuses(from start: MonotonicTime, to end: MonotonicTime) -> [StatusObservation] { [] }
    var statusCount: Int { 0 }

    func takeDown(_ side: LinkSide, for outage: Duration) async throws -> any LinkOutage {
        try await inner.takeDown(side, for: outage)
    }

    func reconnect(timeout: Duration) async -> String? {
        let fail = state.withLock { state in
            state.reconnectTries += 1
            return state.reconnectTries <= state.reconnectsToFail
        }
        return fail ? "no answer (try \(reconnectTries))" : await inner.reconnect(timeout: timeout)
    }

    func disconnect() async throws { try await inner.disconnect() }
    func forgetComputer() async throws { try await inner.forgetComputer() }
    func connectAgain(timeout: Duration) async -> String? { await inner.connectAgain(timeout: timeout) }

    func restartStack(_ computer: any ComputerUnderTest, release: ReleaseCheck) async throws -> LinkObservation {
        try await inner.restartStack(computer, release: release)
    }

    func tearDown(erred: Bool, phase: (String) -> Void, stopComputer: @escaping @Sendable () async -> Void) async -> LinkTeardown {
        await inner.tearDown(erred: erred, phase: phase, stopComputer: stopComputer)
    }
}

/// The in-process computer, seen through a `FakeLink` that may hold a write back: looking at what came out
/// delivers it first.
final class FlushingComputer: ComputerUnderTest {
    let inner: OfflineComputer
    let link: FakeLink

    init(_ inner: OfflineComputer, link: FakeLink) {
        self.inner = inner
        self.link = link
    }

    func frames(since: MonotonicTime) -> [EvdevFrame] {
        link.flushHeldBack()
        return inner.frames(since: since)
    }

    var droppedEvents: Bool { false }
    func heldKeys() -> [String] { inner.heldKeys() }

    func receipts() -> [StageBreakdown.Receipt] {
        link.flushHeldBack()
        return inner.receipts()
    }

    func pairingCode() -> String? { inner.pairingCode() }
    var log: String { "" }

    var changeCount: UInt64 {
        link.flushHeldBack()
        return inner.changeCount
    }

    func awaitChange(after seen: UInt64, until deadline: MonotonicTime) async throws {
        link.flushHeldBack()
        try await inner.awaitChange(after: seen, until: deadline)
    }

    func restart(whileStopped: () async throws -> Void) async throws -> String { try await inner.restart(whileStopped: whileStopped) }
}
