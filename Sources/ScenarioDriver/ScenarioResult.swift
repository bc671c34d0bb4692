public import Report
import Verifier

/// What became of one step.
public struct StepResult: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable {
        case passed, failed, inconclusive
        /// The step has no expectation of its own (a wait, a mode change): it only drives.
        case unchecked
    }

    public var index: Int
    /// The step's kind: `swipe`, `tap`, `button`…
    public var kind: String
    public var outcome: Outcome
    /// From the step's first command to the evdev frame that completed its match.
    public var latencyMs: Double?
    public var commands: Int
    public var message: String
    /// The step's latency split at the command that completed it (needs the peripheral's receipts).
    public var stages: StageBreakdown.Stages?
    /// CLOCK_MONOTONIC ns: the step's first send and the evdev timestamp of the frame that completed it.
    public var firstSendNs: UInt64?
    public var completedNs: UInt64?

    public init(index: Int, kind: String, outcome: Outcome, latencyMs: Double?, commands: Int, message: String,
                stages: StageBreakdown.Stages? = nil)
    {
        self.index = index
        self.kind = kind
        self.outcome = outcome
        self.latencyMs = latencyMs
        self.commands = commands
        self.message = message
        self.stages = stages
    }
}

/// What became of one scenario.
public struct ScenarioResult: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable {
        case passed, failed, inconclusive
        /// The rig or the device under test failed (could not start, crashed): not a verdict on the product.
        case error
        /// The scenario does not apply to the transport it was asked to run on: not run.
        case notApplicable
    }

    public var file: String
    public var name: String
    public var requirements: [String]
    public var outcome: Outcome
    public var steps: [StepResult]
    /// Scenario-level problems: latency limits, keys held at the end, a crash of the device under test.
    public var message: String
    public var durationMs: Double
    /// Status notifications (R5) the phone received during the scenario.
    public var statusNotifications = 0
    /// Which repeat of the suite this result is from (`hil run --repeat`), from 1.
    public var repetition = 1
    /// The captures it kept (`hil run --capture`), paths relative to results.json's folder.
    public var captures: [ScenarioRecord.Capture] = []
    /// The transport it ran on (`ble`, `tcp`).
    public var transport: String?
    /// When each phase of the scenario ended, in ms from its start: where a run's wall time goes.
    public var phases: [Phase] = []
    /// Set when the rig can no longer run scenarios after this one (an adapter that will not power on again), with
    /// why: every later scenario could only error, so `hil run` stops there. Its message says it as well.
    public var rigBroken: String?

    /// The rig broke at this scenario: it is an error whatever its steps said (the rig did not do its part, so no
    /// verdict of it stands), and the first reason found is kept.
    public mutating func rigBroke(_ why: String) {
        outcome = .error
        rigBroken = rigBroken ?? why
    }

    public struct Phase: Sendable, Hashable {
        public var name: String
        public var atMs: Double

        public init(name: String, atMs: Double) {
            self.name = name
            self.atMs = atMs
        }
    }

    public init(file: String, name: String, requirements: [String], outcome: Outcome, steps: [StepResult], message: String,
                durationMs: Double)
    {
        self.file = file
        self.name = name
        self.requirements = requirements
        self.outcome = outcome
        self.steps = steps
        self.message = message
        self.durationMs = durationMs
    }

    public var latencies: [Double] { steps.compactMap(\.latencyMs) }

    /// `p` in 0...1 of the step latencies, nearest rank.
    public func latency(percentile p: Double) -> Double? {
        Judge.percentile(latencies, p)
    }
}
