import InputCodes
import ScenarioDriver
import Synchronization

/// The computer seen through a reader that delivers one extra frame late: it turns up while the driver judges the
/// second segment (the first `frames(since:)` asked for a later start than the first), stamped either just after
/// that segment began (before its first command: a straggler of the step before) or just after that segment's own
/// first frame.
final class LateFrameComputer: ComputerUnderTest {
    enum Stamp: Sendable {
        /// `since` + 1 ms: before the second segment's first command is sent.
        case beforeFirstSend
        /// 1 ms after the second segment's first frame: after its first command.
        case afterOwnFirstFrame
    }

    let inner: any ComputerUnderTest
    let frame: InputFrame
    let stamp: Stamp
    private let state = Mutex<(firstSince: MonotonicTime?, late: EvdevFrame?)>((nil, nil))

    init(_ inner: any ComputerUnderTest, frame: InputFrame, stamp: Stamp) {
        self.inner = inner
        self.frame = frame
        self.stamp = stamp
    }

    func frames(since: MonotonicTime) -> [EvdevFrame] {
        let own = inner.frames(since: since)
        let late: EvdevFrame? = state.withLock { state in
            if state.late == nil, let first = state.firstSince, since > first {
                switch stamp {
                case .beforeFirstSend:
                    state.late = EvdevFrame(frame: frame, time: MonotonicTime(nanoseconds: since.nanoseconds + 1_000_000))
                case .afterOwnFirstFrame:
                    if let firstOwn = own.first { state.late = EvdevFrame(frame: frame, time: MonotonicTime(nanoseconds: firstOwn.time.nanoseconds + 1_000_000)) }
                }
            }
            if state.firstSince == nil { state.firstSince = since }
            return state.late
        }
        guard let late, late.time >= since else { return own }
        return own + [late]
    }

    var droppedEvents: Bool { inner.droppedEvents }
    func heldKeys() -> [String] { inner.heldKeys() }
    func receipts() -> [StageBreakdown.Receipt] { inner.receipts() }
    func pairingCode() -> String? { inner.pairingCode() }
    var log: String { inner.log }
    /// The inner computer's changes, and the late frame's once it turned up.
    var changeCount: UInt64 { inner.changeCount + lateCount }
    private var lateCount: UInt64 { state.withLock { $0.late } == nil ? 0 : 1 }

    func awaitChange(after seen: UInt64, until deadline: MonotonicTime) async throws {
        let late = lateCount
        if seen >= late { try await inner.awaitChange(after: seen - late, until: deadline) }
    }

    func restart(whileStopped: () async throws -> Void) async throws -> String { try await inner.restart(whileStopped: whileStopped) }
}
