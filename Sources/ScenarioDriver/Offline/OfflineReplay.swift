import Foundation
package import Scenario
package import Records

/// A scenario run offline: the same driver as on a rig, with the computer in process (`OfflineComputer`), the
/// link in process and a virtual clock. Its frames and received-command expectations are judged (the others
/// need a real computer: status, pairing codes, link timing); a scenario that contradicts the phone model or
/// the mapping fails here, before it runs on a rig.
package struct OfflineReplay: Sendable {
    /// One line per command: its time, its JSON and the frames it maps to.
    package private(set) var lines: [String] = []
    /// Commands that cannot be mapped and expectations that do not hold, each with the reason.
    package private(set) var errors: [String] = []
    package private(set) var commandCount = 0
    package private(set) var frameCount = 0
    /// Expectations that hold.
    package private(set) var checkedSteps = 0
    package private(set) var summary = ""
    /// The steps' results, as a rig run reports them.
    package private(set) var steps: [StepResult] = []

    /// The verdicts an offline run gives.
    package static let judged: Set<ScenarioDriver.Verdict> = [.events, .received]

    /// Replays `scenario`.
    package static func run(_ scenario: Scenario) async -> OfflineReplay {
        let clock = VirtualClock()
        let computer = OfflineComputer(clock: clock, lockout: .seconds(scenario.run.lockoutSeconds ?? RunSettings.defaultLockoutSeconds))
        let link = OfflineLink(computer: computer, clock: clock, transport: scenario.run.transport ?? .ble)
        let options = ScenarioDriver.Options(judged: judged)
        var replay = OfflineReplay()
        let driver = ScenarioDriver(scenario: scenario, phone: link, computer: computer, clock: clock, options: options)
        do {
            let drive = try await driver.run()
            replay.steps = drive.steps(withReceipts: computer.receipts(), scenario: scenario, options: options)
        } catch {
            replay.errors.append("the offline run stopped: \(error)")
        }
        let unsent = driver.unsent.map { ($0.at, "\(computer.stamp($0.at))  \($0.payload)  →  not sent, the link is down") }
        replay.lines = (computer.lines + unsent).enumerated()
            .sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
        replay.errors = computer.errors + replay.errors
        (replay.commandCount, replay.frameCount) = computer.counts
        for step in replay.steps {
            let expected = scenario.expectations[step.index]
            let checks = (expected.events == nil ? 0 : 1) + (expected.received == nil ? 0 : 1)
            if step.outcome == .failed {
                replay.errors.append("steps[\(step.index)] (\(step.kind)) expectation does not hold offline:\n" + step.message)
            } else {
                replay.checkedSteps += checks
            }
        }
        let (motion, presses) = computer.totals
        replay.summary = "\(replay.commandCount) commands, \(replay.frameCount) frames, \(replay.checkedSteps) expectation(s) hold"
            + (motion.isEmpty ? "" : "; motion " + motion.joined(separator: ", "))
            + (presses.isEmpty ? "" : "; presses " + presses.joined(separator: ", "))
        return replay
    }
}
