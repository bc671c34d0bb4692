package import InputCodes

/// What a scenario step expects to come out of the uinput device, and by when.
///
/// Matching follows the kernel's HID selftests and libinput's test suite: events within one frame match as a
/// set, frames match in order, "nothing else" is checked explicitly, and every step has a deadline.
package struct StepExpectation: Sendable, Hashable {
    /// Exact key and button events in order (`KEY_RIGHT 1`, `KEY_RIGHT 0`); other keys fail the step.
    package var keys: [InputEvent]?
    /// Allow autorepeat (value 2) of the listed keys.
    package var allowRepeat = false
    /// Exact frames in order, each matched as a set.
    package var frames: [InputFrame]?
    /// Accumulated relative motion per axis (REL_X, REL_WHEEL_HI_RES…).
    package var motion: [EventCode: MotionCheck] = [:]
    /// No event of these types during the step (`absent`), which then lasts `absentForMs`.
    package var absentTypes: [EventType] = []
    package var absentForMs: Double?
    /// Nothing but what the step expects may arrive.
    package var nothingElse = false
    /// Deadline from the step's first command to the frame completing the match.
    package var withinMs: Double

    package init(withinMs: Double) {
        self.withinMs = withinMs
    }

    /// The default deadline when a step gives none (before the rig's latency scale).
    package static let defaultWithinMs = 500.0

    /// True when the step expects no events at all but silence for a while.
    package var isAbsenceOnly: Bool {
        keys == nil && frames == nil && motion.isEmpty && (!absentTypes.isEmpty || absentForMs != nil)
    }
}

/// How a relative axis must add up over a step.
package enum MotionCheck: Sendable, Hashable, CustomStringConvertible {
    /// `total ± tolerance` (units of the axis).
    case total(Int, tolerance: Int)
    /// `total ± percent %` of the total.
    case totalPercent(Int, percent: Double)
    /// Only the sign: positive, negative, or zero (no motion at all).
    case direction(Direction)

    package enum Direction: String, Sendable, Hashable, CaseIterable {
        case positive, negative, zero
    }

    package var description: String {
        switch self {
        case .total(let total, let tolerance): "\(total) ± \(tolerance)"
        case .totalPercent(let total, let percent): "\(total) ± \(percent)%"
        case .direction(let direction): direction.rawValue
        }
    }

    /// Whether `sum` satisfies the check.
    package func accepts(_ sum: Int) -> Bool {
        switch self {
        case .total(let total, let tolerance): return abs(sum - total) <= tolerance
        case .totalPercent(let total, let percent): return abs(Double(sum - total)) <= abs(Double(total)) * percent / 100
        case .direction(.positive): return sum > 0
        case .direction(.negative): return sum < 0
        case .direction(.zero): return sum == 0
        }
    }
}
