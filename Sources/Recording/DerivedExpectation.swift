import InputCodes
import Verifier

/// The expectation a recorded segment's frames give, in the vocabulary of docs/scenarios.md and judged by the
/// `Verifier` on replay: every key and button event exactly, in order (`keys`; an autorepeat allowed if one came);
/// each relative axis's total with a tolerance (`motion`); nothing else. A segment that wrote no frame expects
/// nothing (`absent`) for its span.
enum DerivedExpectation {
    /// Added to a segment's last frame for its deadline (`withinMs`), and to its span for `forMs`: the default
    /// deadline of a step (docs/scenarios.md), before the rig's latency scale.
    static let slackMs = StepExpectation.defaultWithinMs

    /// - Parameters:
    ///   - frames: the frames from the segment's first receipt to the next segment's.
    ///   - start: the segment's first receipt.
    ///   - spanMs: from its first receipt to its last.
    ///   - tolerancePercent: of each axis's total (an axis whose allowance is under one count is exact).
    /// - Throws: for an event a scenario cannot expect by name in keys or motion (an absolute axis, a misc event).
    static func from(_ frames: [EvdevFrame], start: MonotonicTime, spanMs: Double, tolerancePercent: Double) throws(RecordingError)
        -> StepExpectation
    {
        let events = frames.flatMap(\.events)
        if let other = frames.first(where: { $0.events.contains { $0.code.type != .key && $0.code.type != .rel } }) {
            throw RecordingError(.unexpectableFrame, "a frame at \(other.time) has \(other.frame), which a recording cannot expect (keys and relative motion only)")
        }
        guard let last = frames.last else {
            var expectation = StepExpectation(withinMs: spanMs.rounded(.up) + slackMs)
            expectation.absentTypes = [.key, .rel]
            expectation.absentForMs = spanMs.rounded(.up) + slackMs
            return expectation
        }
        let offset = Double(last.time.nanoseconds &- min(last.time.nanoseconds, start.nanoseconds)) / 1e6
        var expectation = StepExpectation(withinMs: offset.rounded(.up) + slackMs)
        let keys = events.filter { $0.code.type == .key && $0.value != 2 }
        if !keys.isEmpty { expectation.keys = keys }
        expectation.allowRepeat = events.contains { $0.code.type == .key && $0.value == 2 }
        var totals: [EventCode: Int] = [:]
        for event in events where event.code.type == .rel { totals[event.code, default: 0] += Int(event.value) }
        for (axis, total) in totals {
            let allowance = Double(abs(total)) * tolerancePercent / 100
            expectation.motion[axis] = allowance >= 1 ? .totalPercent(total, percent: tolerancePercent) : .total(total, tolerance: 0)
        }
        expectation.nothingElse = true
        return expectation
    }
}
