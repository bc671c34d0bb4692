package import Records

/// Everything a scenario's outcome is decided from, gathered as it runs: the driver adds its steps and the checks of
/// the end, the runner what went wrong around them. `Judge.outcome` turns it into the outcome, once.
package struct ScenarioFindings: Sendable, Equatable {
    /// Its steps' outcomes.
    package var steps: [StepResult.Outcome] = []
    /// What fails it beside its steps: a scenario-level problem, a key held at the end, a latency limit missed, a
    /// refusal to start that was not as the scenario expects.
    package var failures: [String] = []
    /// The kernel dropped events (SYN_DROPPED): the frames seen are not whole.
    package var droppedEvents = false
    /// The rig or the device under test failed (its setup threw, the computer exited, the rig broke, the run was
    /// interrupted): no verdict on the product stands.
    package var errors: [String] = []
    /// The link's teardown went wrong after the steps: it makes an error of a scenario that would have passed, and
    /// leaves a failure or an inconclusive verdict as it is (their evidence was taken before).
    package var teardownProblems: [String] = []

    package init() {}
}

extension Judge {
    /// The one place a scenario's outcome is decided.
    ///
    /// An error when the rig or the device under test failed; else failed when a step or a scenario-level check
    /// failed (a failed step fails the scenario even beside an inconclusive one: its own evidence was whole, and a
    /// key held at the end is read from the kernel's state, not from the frames); else inconclusive when a step was,
    /// or the kernel dropped events; else an error when the teardown went wrong; else passed.
    package static func outcome(_ findings: ScenarioFindings) -> ScenarioResult.Outcome {
        if !findings.errors.isEmpty { return .error }
        if !findings.failures.isEmpty || findings.steps.contains(.failed) { return .failed }
        if findings.droppedEvents || findings.steps.contains(.inconclusive) { return .inconclusive }
        if !findings.teardownProblems.isEmpty { return .error }
        return .passed
    }
}
