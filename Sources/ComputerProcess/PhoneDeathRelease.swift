package import InputCodes
import ScenarioDriver
import System

/// What the computer held when a phone's host died and when it let go of each, read from its frames: a key or
/// button held is one whose last event by the death was a press.
package struct PhoneDeathRelease: Sendable {
    /// The keys and buttons held at the death, by name.
    package let heldAtDeath: [String]
    /// Each one's release, in ms after the death; absent when it was not released by the deadline.
    package let releasedAfterMs: [String: Double]

    package init(_ frames: [EvdevFrame], diedAt: MonotonicTime, deadline: MonotonicTime) {
        var down: [String: Bool] = [:]
        var released: [String: Double] = [:]
        var held: [String] = []
        var passedDeath = false
        for frame in frames.sorted(by: { $0.time < $1.time }) {
            if !passedDeath, frame.time > diedAt {
                passedDeath = true
                held = down.filter(\.value).map(\.key).sorted()
            }
            for event in frame.events where event.code.type == .key {
                let name = event.code.description
                if passedDeath, event.value == 0, down[name] == true, released[name] == nil, frame.time <= deadline {
                    released[name] = (frame.time - diedAt).milliseconds
                }
                down[name] = event.value != 0
            }
        }
        if !passedDeath { held = down.filter(\.value).map(\.key).sorted() }
        heldAtDeath = held
        releasedAfterMs = released.filter { held.contains($0.key) }
    }

    /// Waits until `computer` holds nothing, or its link's supervision timeout and 2 s × `latencyScale` after the
    /// phone died at `diedAt` (now when unknown), then reads its frames.
    package static func after(_ diedAt: MonotonicTime?, of computer: PeripheralComputer, supervisionTimeoutMs: Int,
                              latencyScale: Double) async -> PhoneDeathRelease
    {
        let died = diedAt ?? MonotonicTime.now()
        let downAt = MonotonicTime(nanoseconds: died.nanoseconds + UInt64(supervisionTimeoutMs) * 1_000_000)
        let deadline = MonotonicTime(nanoseconds: downAt.nanoseconds + UInt64(2000 * latencyScale * 1_000_000))
        let check = ReleaseCheck(computer: computer, clock: RealTimeClock(), latencyScale: latencyScale)
        _ = await check.afterDrop(heldBefore: [], downAt: downAt)
        return PhoneDeathRelease(computer.frames(since: MonotonicTime(nanoseconds: 0)), diedAt: died, deadline: deadline)
    }

    /// What was held at the death and not released by the deadline.
    package var stillHeld: [String] { heldAtDeath.filter { releasedAfterMs[$0] == nil } }

    /// `BTN_LEFT held when it died, released 1180.3 ms after`, or what was still held.
    package var note: String {
        if heldAtDeath.isEmpty { return "nothing was held when it died" }
        if !stillHeld.isEmpty { return "\(heldAtDeath.joined(separator: ", ")) held when it died; not released: \(stillHeld.joined(separator: ", "))" }
        let last = releasedAfterMs.values.max() ?? 0
        return "\(heldAtDeath.joined(separator: ", ")) held when it died, released \(NumberText.oneDecimal(last)) ms after"
    }
}
