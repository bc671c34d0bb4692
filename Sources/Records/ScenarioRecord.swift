package import LatencyStats
package import StrictJSON

/// One scenario in results.json: its verdict, its steps, its latency.
package struct ScenarioRecord: Sendable, Equatable {
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
    /// The scenario's own summary of its step latencies, as written by `hil run`.
    package var latencyMs: LatencySummary?
    /// Scenario-level problems: latency limits, keys held at the end, a crash of the device under test.
    package var message: String?
    package var steps: [StepRecord]
    /// Status notifications (R5) the phone received during the scenario.
    package var statusNotifications: Int?
    /// Which repeat of the suite this is (`hil run --repeat`), from 1; nil in a run without repeats.
    package var repetition: Int?
    /// When each phase of the scenario ended, in ms from its start, in order (`phasesMs`).
    package var phasesMs: [Phase]?
    /// The transport it ran on (`ble`, `tcp`); nil in files from before transports.
    package var transport: String?
    /// The evidence kept for this scenario (`hil run --capture`), paths relative to results.json's folder.
    package var captures: [Capture] = []
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

    package init(file: String, name: String, requirements: [String] = [], outcome: Outcome, durationMs: Double? = nil,
                latencyMs: LatencySummary? = nil, message: String? = nil, steps: [StepRecord],
                statusNotifications: Int? = nil, repetition: Int? = nil, phasesMs: [Phase]? = nil, transport: String? = nil,
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

    /// The scenario's p95: the file's, else HdrHistogram's over its steps' latencies.
    package var p95Ms: Double? {
        if let p95 = latencyMs?.p95 { return p95 }
        return LatencyRecorder(steps.compactMap(\.latencyMs)).summary.p95
    }

    /// The failed and inconclusive steps: the reasons for a failed verdict.
    package var problemSteps: [StepRecord] { steps.filter(\.isProblem) }

    /// One line saying why the scenario did not pass: the first failed step's first message line, else the
    /// scenario's message; empty for a passed scenario without a message.
    package var firstReason: String {
        for step in problemSteps {
            let line = step.message.flatMap(Self.firstLine) ?? ""
            return "steps[\(step.index)] (\(step.kind)) \(step.outcome.rawValue)" + (line.isEmpty ? "" : ": \(line)")
        }
        if let line = message.flatMap(Self.firstLine), !line.isEmpty { return line }
        return outcome == .passed ? "" : outcome.rawValue
    }

    private static func firstLine(_ text: String) -> String? {
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
