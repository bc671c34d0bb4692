public import InputCodes

/// The outcome of one step.
public struct StepVerdict: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable {
        case passed
        case failed
        /// The kernel dropped events (SYN_DROPPED): nothing can be concluded, and it is never a pass.
        case inconclusive
    }

    public var outcome: Outcome
    /// From the step's first command to the frame that completed the match.
    public var latency: Duration?
    /// Why it failed, with expected and actual side by side; empty when it passed.
    public var message: String
    public var frames: [EvdevFrame]

    public init(outcome: Outcome, latency: Duration?, message: String, frames: [EvdevFrame]) {
        self.outcome = outcome
        self.latency = latency
        self.message = message
        self.frames = frames
    }
}
