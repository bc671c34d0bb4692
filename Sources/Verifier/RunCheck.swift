/// The checks every run makes beyond a scenario's own expectations (docs/scenarios.md, "What every run checks"): the
/// accounting of every command (`CommandAccounting`) and the time rules (`StageRule`). A scenario may switch one off,
/// with its reason (`"checksOff": [{"check": "computerStage", "reason": "…"}]`).
package enum RunCheck: String, Sendable, Hashable, CaseIterable {
    /// Every write the phone sent reached the computer.
    case received
    /// The computer took what docs/protocol.md says it takes, and refused the rest.
    case refusals
    /// The input device showed exactly what docs/protocol.md makes of what the computer took.
    case frames
    /// The computer applied the writes in the order they were sent.
    case order
    /// The computer's own stage (a write received → its first frame written) within the rig's limit.
    case computerStage
    /// Each step's link stage within what the link's model explains.
    case linkStage

    /// The accounting's checks.
    package static let accounting: [RunCheck] = [.received, .refusals, .frames, .order]
}
