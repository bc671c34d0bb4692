package import StrictJSON

/// One step of a scenario: the driver's verdict on it as it runs, and its entry in results.json (its verdict, its
/// latency and where that latency went). The one model of a step's result.
package struct StepResult: Sendable, Equatable {
    package enum Outcome: String, Sendable, Hashable, CaseIterable {
        case passed, failed, inconclusive
        /// The step has no expectation of its own (a wait, a mode change): it only drives.
        case unchecked
    }

    package var index: Int
    /// `swipe`, `tap`, `button`…: what `latency.byKind` groups by.
    package var kind: String
    package var outcome: Outcome
    /// How many commands the phone sent for the step; nil in a file that does not say.
    package var commands: Int?
    /// From the step's first command handed to the link to the evdev frame that completed its match.
    package var latencyMs: Double?
    /// `latencyMs` split into its stages (gesture, link, peripheral, kernel); nil when the commands could not be
    /// matched to the computer's receipts.
    package var stagesMs: [LatencyStage: Double]?
    /// For a failed step: expected vs actual, with timestamps; empty when there is nothing to say.
    package var message: String
    /// The radio the step ran under, once a `radio` step changed the rig's ("packet error rate 10 %, connection
    /// interval 30 ms", "blackout 3000 ms", "the rig's own" after a reset); nil before any (results.json's
    /// environment names the rig's radio then).
    package var radio: String?
    /// CLOCK_MONOTONIC ns of the step's first send and of the evdev frame that completed it (the run's own: not in
    /// results.json).
    package var firstSendNs: UInt64?
    package var completedNs: UInt64?
    /// Keys this version does not know, kept as they were.
    package var additional: JSONObject

    package init(index: Int, kind: String, outcome: Outcome, commands: Int? = nil, latencyMs: Double? = nil,
                 stagesMs: [LatencyStage: Double]? = nil, message: String = "", additional: JSONObject = JSONObject())
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
