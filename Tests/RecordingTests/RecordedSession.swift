import Foundation
import HILTestSupport
import InputCodes
import Recording
import Scenario
import ScenarioDriver
import StrictJSON

/// A session to record, made offline: the virtual phone drives the in-process computer through a script of
/// gestures with idle gaps between them (a swipe, a tap, a drag, a scroll, a shortcut), on one transport; what the
/// computer received and the frames it wrote are what a rig run's receipts.log and evdev.log hold.
enum RecordedSession {
    static let script = RecordingSession.script

    /// The computer's receipts (as numbered receipts.log lines) and frames, from driving `script` on `transport`.
    static func make(on transport: Transport) async throws -> (receipts: [RecordedReceipt], frames: [EvdevFrame]) {
        var scenario = try Scenario.parse(try JSONParser().parse(script), file: "session.json")
        scenario.run.transport = transport
        let clock = VirtualClock()
        let computer = OfflineComputer(clock: clock)
        let link = OfflineLink(computer: computer, clock: clock, transport: transport)
        let driver = ScenarioDriver(scenario: scenario, phone: link, computer: computer, clock: clock,
                                    options: .init(judged: OfflineReplay.judged))
        _ = try await driver.run()
        let log = computer.receipts().map(\.text).joined(separator: "\n") + "\n"
        return (RecordedReceipt.parse(log: log), computer.frames(since: MonotonicTime(nanoseconds: 0)))
    }

    /// The recording's scenario, read back as `hil validate` reads it.
    static func scenario(_ recording: SessionRecorder.Recording, file: String = "session.json") throws -> Scenario {
        try Scenario.parse(try JSONParser().parse(recording.scenario.text), file: file)
    }
}
