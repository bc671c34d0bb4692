package import Records

/// What a step's checks found, gathered while the scenario runs (its events, link, pairing, status and phone
/// expectations) and after the computer stopped (its receipts, the accounting, the time rules). `Judge.step`
/// decides the step's outcome from it, once, when every check is in.
package struct StepEvidence: Sendable, Hashable {
    package var index: Int
    package var kind: String
    /// How many commands the phone sent for the step.
    package var commands: Int?
    package var latencyMs: Double?
    package var stagesMs: [LatencyStage: Double]?
    package var firstSendNs: UInt64?
    package var completedNs: UInt64?
    /// The radio the step ran under, as the radio confirmed it (`StepResult.radio`).
    package var radio: String?
    /// Some expectation of the step was checked.
    package var judged = false
    /// What failed, in the order the checks found it: the events (or the link, the pairing) first, then the status
    /// and the phone, the receipts, the accounting, the time rules.
    package var problems: [String] = []
    /// The step's evidence is not whole (the kernel dropped events; a lockout ran out while the phone waited): what
    /// its checks found then, which stands for no verdict.
    package var inconclusive = false
    package var withheld: [String] = []
    /// What the step did and what was seen, which is no verdict ("not run: …", a radio step's setting).
    package var notes: [String] = []

    package init(index: Int, kind: String, commands: Int? = 0, notes: [String] = []) {
        self.index = index
        self.kind = kind
        self.commands = commands
        self.notes = notes.filter { !$0.isEmpty }
    }

    /// Adds a check's finding: `judged` says the check applied, `problems` what failed (none: it held).
    package mutating func add(judged: Bool, problems: [String]) {
        guard judged else { return }
        self.judged = true
        self.problems += problems
    }
}

extension Judge {
    /// The one place a step's outcome is decided: failed when a check found a problem (a failed check stands even
    /// beside evidence that is not whole: its own evidence was), else inconclusive when the evidence is not whole,
    /// else passed when a check applied, else unchecked.
    package static func stepOutcome(_ evidence: StepEvidence) -> StepResult.Outcome {
        if !evidence.problems.isEmpty { return .failed }
        if evidence.inconclusive { return .inconclusive }
        return evidence.judged ? .passed : .unchecked
    }

    /// The step's result: its outcome, and its message (the problems, what stands for no verdict, then the notes).
    package static func step(_ evidence: StepEvidence) -> StepResult {
        let message = (evidence.problems + evidence.withheld + evidence.notes).filter { !$0.isEmpty }.joined(separator: "\n")
        var result = StepResult(index: evidence.index, kind: evidence.kind, outcome: stepOutcome(evidence), commands: evidence.commands,
                                latencyMs: evidence.latencyMs, stagesMs: evidence.stagesMs, message: message)
        result.radio = evidence.radio
        result.firstSendNs = evidence.firstSendNs
        result.completedNs = evidence.completedNs
        return result
    }
}
