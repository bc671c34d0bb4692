package import StrictJSON

/// One step of a scenario in results.json: its verdict, its latency and where that latency went.
package struct StepRecord: Sendable, Equatable {
    package enum Outcome: String, Sendable, Hashable, CaseIterable {
        case passed, failed, inconclusive
        /// The step has no expectation of its own (a wait, a mode change): it only drives.
        case unchecked
    }

    package var index: Int
    /// `swipe`, `tap`, `button`…: what `latency.byKind` groups by.
    package var kind: String
    package var outcome: Outcome
    /// How many commands the phone sent for the step.
    package var commands: Int?
    /// From the step's first command handed to the link to the evdev frame that completed its match.
    package var latencyMs: Double?
    /// `latencyMs` split into its four stages; nil when the commands could not be matched to the receipts.
    package var stagesMs: [LatencyStage: Double]?
    /// For a failed step: expected vs actual, with timestamps.
    package var message: String?
    /// Keys this version does not know, kept as they were.
    package var additional: JSONObject

    package init(index: Int, kind: String, outcome: Outcome, commands: Int? = nil, latencyMs: Double? = nil,
                stagesMs: [LatencyStage: Double]? = nil, message: String? = nil, additional: JSONObject = JSONObject())
    {
        self.index = index
        self.kind = kind
        self.outcome = outcome
        self.commands = commands
        self.latencyMs = latencyMs
        self.stagesMs = stagesMs
        self.message = message
        self.additional = additional
    }

    /// Whether the step is a reason for its scenario's verdict.
    package var isProblem: Bool { outcome == .failed || outcome == .inconclusive }
}
