package import LatencyStats
package import StrictJSON

/// One scenario: what the runner makes of it as it runs, and its entry in results.json (its verdict, its steps,
/// its latency). The one model of a scenario's result, from `hil run` to `hil report`.
package struct ScenarioResult: Sendable, Equatable {
    package enum Outcome: String, Sendable, Hashable, CaseIterable {
        case passed, failed
        /// No verdict on the product: the kernel dropped events (SYN_DROPPED), or the rig was too slow to judge a
        /// step (a lockout that had run out before the code was sent).
        case inconclusive
        /// The rig or the device under test failed: not a verdict on the product.
        case error
        /// The scenario does not apply to the transport it was asked to run on (its `run.transports`): not run.
        case notApplicable

        /// Counted among the failures (totals, exit status, JUnit): everything that did not pass and did apply.
        package var isFailure: Bool { self != .passed && self != .notApplicable }
    }

    package var file: String
    package var name: String
    package var requirements: [String]
    package var outcome: Outcome
    package var durationMs: Double?
    /// The scenario's summary of its step latencies as a file gave it; nil for a run's own result, whose summary
    /// comes from its steps (`latencySummary`).
    package var latencyMs: LatencySummary?
    /// Scenario-level problems: latency limits, keys held at the end, a crash of the device under test; empty
    /// when there are none.
    package var message: String
    package var steps: [StepResult]
    /// Status notifications (R5) the phone received during the scenario.
    package var statusNotifications: Int?
    /// Which repeat of the suite this is (`hil run --repeat`), from 1. results.json has it only for a run that
    /// repeated its scenarios.
    package var repetition = 1
    /// When each phase of the scenario ended, in ms from its start, in order (`phasesMs`).
    package var phasesMs: [Phase]?
    /// The transport it ran on (`ble`, `hid`, `tcp` or `udp`); nil in files from before transports.
    package var transport: String?
    /// The phone that drove it on ble and hid: `bluez`, or `bumble:PROFILE` with the fields its `run.phone` changed
    /// (`bumble:minimal mtu=23`); nil on tcp and udp and in files from before.
    package var phone: String?
    /// The evidence kept for this scenario (`hil run --capture`), paths relative to results.json's folder.
    package var captures: [Capture] = []
    /// Set when the rig can no longer run scenarios after this one (an adapter that will not power on again), with
    /// why: every later scenario could only error, so `hil run` stops there. Its message says it as well. The run's
    /// own: not in results.json.
    package var rigBroken: String?
    /// Keys this version does not know or does not interpret, kept as they were.
    package var additional: JSONObject

    /// A capture file: `hci` (btsnoop), `network` (pcap), `evdev` (evdev.log), `timeline` (timeline.json).
    package struct Capture: Sendable, Hashable {
        package var kind: String
        package var path: String

        package init(kind: String, path: String) {
            self.kind = kind
            self.path = path
        }

        /// The kinds in the order they are listed, with what each is.
        package static let kinds: [(kind: String, title: String)] = [
            ("timeline", "timeline (Perfetto)"), ("hci", "HCI capture (btsnoop)"), ("network", "packet capture (pcap)"),
            ("evdev", "evdev events"),
        ]
    }

    /// One phase of a scenario (`connected`, `steps done`…) and when it ended, in ms from the scenario's start.
    package struct Phase: Sendable, Equatable {
        package var name: String
        package var atMs: Double

        package init(name: String, atMs: Double) {
            self.name = name
            self.atMs = atMs
        }
    }

    package init(file: String, name: String, requirements: [String] = [], outcome: Outcome, steps: [StepResult] = [],
                 message: String = "", durationMs: Double? = nil, latencyMs: LatencySummary? = nil,
                 statusNotifications: Int? = 0, repetition: Int = 1, phasesMs: [Phase]? = [], transport: String? = nil,
                 additional: JSONObject = JSONObject())
    {
        self.file = file
        self.name = name
        self.requirements = requirements
        self.outcome = outcome
        self.durationMs = durationMs
        self.latencyMs = latencyMs
        self.message = message
        self.steps = steps
        self.statusNotifications = statusNotifications
        self.repetition = repetition
        self.phasesMs = phasesMs
        self.transport = transport
        self.additional = additional
    }

    /// Every step latency, in step order.
    package var latencies: [Double] { steps.compactMap(\.latencyMs) }

    /// count, p50, p95, p99 and max of the step latencies (HdrHistogram, as everywhere), or the summary the file gave.
    package var latencySummary: LatencySummary { latencyMs ?? LatencyRecorder(latencies).summary }

    package var p95Ms: Double? { latencySummary.p95 }

    /// The failed and inconclusive steps: the reasons for a failed verdict.
    package var problemSteps: [StepResult] { steps.filter(\.isProblem) }

    /// One line saying why the scenario did not pass: the first failed step's heading (`reason(of:)`), else the
    /// scenario's message; empty for a passed scenario without a message. It is junit.xml's failure message,
    /// summary.md's first reason and the line `hil run -q` prints under the scenario's.
    package var firstReason: String {
        if let step = problemSteps.first { return Self.reason(of: step) }
        if let line = Self.firstLine(message), !line.isEmpty { return line }
        return outcome == .passed ? "" : outcome.rawValue
    }

    /// A failed or inconclusive step in one line, its most specific reason (its message's first line: what arrived
    /// instead of what, `StepMatcher` puts it first) after its place: `steps[0] (tap) failed: key event 1: expected
    /// BTN_RIGHT 1, got BTN_LEFT 1 at +13 ms`.
    package static func reason(of step: StepResult) -> String {
        let line = firstLine(step.message) ?? ""
        return "steps[\(step.index)] (\(step.kind)) \(step.outcome.rawValue)" + (line.isEmpty ? "" : ": \(line)")
    }

    static func firstLine(_ text: String) -> String? {
        text.split(separator: "\n", omittingEmptySubsequences: true).first
            .map { String($0).trimmingWhitespace() }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
