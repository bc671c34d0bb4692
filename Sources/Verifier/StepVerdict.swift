package import InputCodes
package import Records

/// The outcome of one step: passed, failed, or inconclusive when the kernel dropped events (SYN_DROPPED: nothing can
/// be concluded, and it is never a pass). Never `unchecked`: a step without an expectation is not judged.
package struct StepVerdict: Sendable, Hashable {
    package var outcome: StepResult.Outcome
    /// From the step's first command to the frame that completed the match.
    package var latency: Duration?
    /// Why it failed, with expected and actual side by side; empty when it passed.
    package var message: String
    package var frames: [EvdevFrame]

    package init(outcome: StepResult.Outcome, latency: Duration?, message: String, frames: [EvdevFrame]) {
        self.outcome = outcome
        self.latency = latency
        self.message = message
        self.frames = frames
    }
}
