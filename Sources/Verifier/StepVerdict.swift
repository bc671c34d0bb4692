package import InputCodes

/// The outcome of one step.
package struct StepVerdict: Sendable, Hashable {
    package enum Outcome: String, Sendable, Hashable {
        case passed
        case failed
        /// The kernel dropped events (SYN_DROPPED): nothing can be concluded, and it is never a pass.
        case inconclusive
    }

    package var outcome: Outcome
    /// From the step's first command to the frame that completed the match.
    package var latency: Duration?
    /// Why it failed, with expected and actual side by side; empty when it passed.
    package var message: String
    package var frames: [EvdevFrame]

    package init(outcome: Outcome, latency: Duration?, message: String, frames: [EvdevFrame]) {
        self.outcome = outcome
        self.latency = latency
        self.message = message
        self.frames = frames
    }
}
