package import Records
import Verifier
package import LatencyStats

/// What became of one step.
package struct StepResult: Sendable, Hashable {
    package enum Outcome: String, Sendable, Hashable {
        case passed, failed, inconclusive
        /// The step has no expectation of its own (a wait, a mode change): it only drives.
        case unchecked
    }

    package var index: Int
    /// The step's kind: `swipe`, `tap`, `button`…
    package var kind: String
    package var outcome: Outcome
    /// From the step's first command to the evdev frame that completed its match.
    package var latencyMs: Double?
    package var commands: Int
    package var message: String
    /// The step's latency split at the command that completed it (needs the peripheral's receipts).
    package var stages: StageBreakdown.Stages?
    /// CLOCK_MONOTONIC ns: the step's first send and the evdev timestamp of the frame that completed it.
    package var firstSendNs: UInt64?
    package var completedNs: UInt64?

    package init(index: Int, kind: String, outcome: Outcome, latencyMs: Double?, commands: Int, message: String,
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
package struct ScenarioResult: Sendable, Hashable {
    package enum Outcome: String, Sendable, Hashable {
        case passed, failed, inconclusive
        /// The rig or the device under test failed (could not start, crashed): not a verdict on the product.
        case error
        /// The scenario does not apply to the transport it was asked to run on: not run.
        case notApplicable
    }

    package var file: String
    package var name: String
    package var requirements: [String]
    package var outcome: Outcome
    package var steps: [StepResult]
    /// Scenario-level problems: latency limits, keys held at the end, a crash of the device under test.
    package var message: String
    package var durationMs: Double
    /// Status notifications (R5) the phone received during the scenario.
    package var statusNotifications = 0
    /// Which repeat of the suite this result is from (`hil run --repeat`), from 1.
    package var repetition = 1
    /// The captures it kept (`hil run --capture`), paths relative to results.json's folder.
    package var captures: [ScenarioRecord.Capture] = []
    /// The transport it ran on (`ble`, `tcp`).
    package var transport: String?
    /// When each phase of the scenario ended, in ms from its start: where a run's wall time goes.
    package var phases: [Phase] = []
    /// Set when the rig can no longer run scenarios after this one (an adapter that will not power on again), with
    /// why: every later scenario could only error, so `hil run` stops there. Its message says it as well.
    package var rigBroken: String?

    /// The rig broke at this scenario: it is an error whatever its steps said (the rig did not do its part, so no
    /// verdict of it stands), and the first reason found is kept.
    package mutating func rigBroke(_ why: String) {
        outcome = .error
        rigBroken = rigBroken ?? why
    }

    package struct Phase: Sendable, Hashable {
        package var name: String
        package var atMs: Double

        package init(name: String, atMs: Double) {
            self.name = name
            self.atMs = atMs
        }
    }

    package init(file: String, name: String, requirements: [String], outcome: Outcome, steps: [StepResult], message: String,
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

    package var latencies: [Double] { steps.compactMap(\.latencyMs) }

    /// The step latencies' count, p50, p95, p99 and max, as results.json and the reports give them (HdrHistogram).
    package var latencySummary: LatencySummary { LatencyRecorder(latencies).summary }
}
