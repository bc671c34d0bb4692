import Foundation
import InputCodes
package import Scenario
package import Records

/// A scenario run offline: the same driver as on a rig, with the computer in process (`OfflineComputer`), the
/// link in process and a virtual clock. Its frames and received-command expectations are judged (the others
/// need a real computer: status, pairing codes, link timing, the phone's state, the device list, a refusal to
/// start); a scenario that contradicts the phone model or the mapping fails here, before it runs on a rig.
package struct OfflineReplay: Sendable {
    /// What an offline run can say of a scenario.
    package enum Verdict: String, Sendable, Equatable {
        /// Every check it could judge holds, and it could judge at least one.
        case ok
        /// None of its checks could be judged offline (or it has none): no failure, and no pass either.
        case notJudged = "not judged"
        /// A command could not be mapped, a check does not hold, or the run stopped.
        case failed = "ERROR"
    }

    /// One line per command: its time, its JSON and the frames it maps to.
    package private(set) var lines: [String] = []
    /// Commands that cannot be mapped and expectations that do not hold, each with the reason.
    package private(set) var errors: [String] = []
    package private(set) var commandCount = 0
    package private(set) var frameCount = 0
    /// Expectations that hold.
    package private(set) var checkedSteps = 0
    /// Checks judged offline, whether they held or not.
    package private(set) var judgedChecks = 0
    /// The checks only a rig can judge, by JSON path (`steps[2].expect.pairing`, `expectRefusal`), with what they need.
    package private(set) var notJudged: [String] = []
    package private(set) var summary = ""
    /// The steps' results, as a rig run reports them.
    package private(set) var steps: [StepResult] = []

    /// The verdicts an offline run gives.
    package static let judged: Set<ScenarioDriver.Check> = [.events, .received, .accounting]

    package var verdict: Verdict {
        if !errors.isEmpty { return .failed }
        return judgedChecks == 0 ? .notJudged : .ok
    }

    /// Replays `scenario`.
    package static func run(_ scenario: Scenario) async -> OfflineReplay {
        var replay = OfflineReplay()
        replay.notJudged = notJudgedChecks(scenario)
        if let texts = scenario.expectedRefusal {
            // R10: on a rig the computer is started without uinput and must refuse to start, so no step runs; driving
            // the steps here would inject what the scenario says must never be injected.
            replay.lines = ["the computer must refuse to start (expectRefusal \(texts)): no step runs"]
            replay.summary = summaryText(replay, motion: [], presses: [])
            return replay
        }
        let clock = VirtualClock()
        let computer = OfflineComputer(clock: clock, lockout: .seconds(scenario.run.lockoutSeconds ?? RunSettings.defaultLockoutSeconds))
        let link = OfflineLink(computer: computer, clock: clock, transport: scenario.run.transport ?? .ble)
        let options = ScenarioDriver.Options(judged: judged)
        let driver = ScenarioDriver(scenario: scenario, phone: link, computer: computer, clock: clock, options: options)
        do {
            let drive = try await driver.run()
            let judged = drive.judged(receipts: computer.receipts(), frames: computer.frames(since: MonotonicTime(nanoseconds: 0)),
                                      scenario: scenario, options: options)
            replay.steps = judged.steps
            replay.errors += judged.failures
        } catch {
            replay.errors.append("the offline run stopped: \(error)")
        }
        let unsent = driver.unsent.map { ($0.at, "\(computer.stamp($0.at))  \($0.payload)  →  not sent, the link is down") }
        let actions = driver.linkActions.map { ($0.at, "\(computer.stamp($0.at))  \($0.text)") }
        replay.lines = (computer.lines + unsent + actions).enumerated()
            .sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
        replay.errors = computer.errors + replay.errors
        (replay.commandCount, replay.frameCount) = computer.counts
        for step in replay.steps {
            let expected = scenario.expectations[step.index]
            let checks = (expected.events == nil ? 0 : 1) + (expected.received == nil ? 0 : 1)
            replay.judgedChecks += checks
            if step.outcome == .failed {
                replay.errors.append("steps[\(step.index)] (\(step.kind)) expectation does not hold offline:\n" + Self.cause(step.message))
            } else {
                replay.checkedSteps += checks
            }
        }
        let (motion, presses) = computer.totals
        replay.summary = summaryText(replay, motion: motion, presses: presses)
        return replay
    }

    /// A failed step's message as replay shows it: without the verifier's `not met within N ms`, which offline,
    /// where frames come with no latency, reads as timing when the cause is the events (the next line, which `-q`
    /// shows then).
    static func cause(_ message: String) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        let kept = lines.filter { !($0.hasPrefix("not met within ") && $0.hasSuffix(" ms")) }
        return kept.isEmpty ? message : kept.joined(separator: "\n")
    }

    /// `12 commands, 14 frames, 2 expectation(s) hold; 3 checks need a rig, not judged; motion REL_X +120`
    private static func summaryText(_ replay: OfflineReplay, motion: [String], presses: [String]) -> String {
        "\(counted(replay.commandCount, "command")), \(counted(replay.frameCount, "frame")), \(replay.checkedSteps) expectation(s) hold"
            + (replay.notJudged.isEmpty ? "" : "; \(replay.notJudged.count) check(s) need a rig, not judged")
            + (motion.isEmpty ? "" : "; motion " + motion.joined(separator: ", "))
            + (presses.isEmpty ? "" : "; presses " + presses.joined(separator: ", "))
    }

    /// The scenario's checks an offline run does not judge, in file order, each with what only a rig has.
    static func notJudgedChecks(_ scenario: Scenario) -> [String] {
        var checks: [String] = []
        for (index, expected) in scenario.expectations.enumerated() {
            let kinds: [(verdict: ScenarioDriver.Check, present: Bool, key: String, need: String)] = [
                (.events, expected.events != nil, "keys/frames/motion/absent", "frames"),
                (.link, expected.link != nil, "link", "a real link"),
                (.phone, expected.phone != nil, "phone", "the phone's state in real time"),
                (.status, expected.status != nil, "status", "the computer's status notifications"),
                (.received, expected.received != nil, "received", "the computer's receipts"),
                (.pairing, expected.pairing != nil, "pairing", "the computer's pairing code and lockout"),
            ]
            for kind in kinds where kind.present && !judged.contains(kind.verdict) {
                checks.append("steps[\(index)].expect.\(kind.key) (needs \(kind.need))")
            }
        }
        if scenario.devicesExpectation != nil && !judged.contains(.devices) {
            checks.append("expectDevices (needs the phone's remembered computers)")
        }
        if scenario.expectedRefusal != nil {
            checks.append("expectRefusal (needs a computer started without uinput)")
        }
        return checks
    }
}
