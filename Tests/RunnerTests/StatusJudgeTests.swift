import InputCodes
import RemoteTouchProtocol
@testable import Runner
import Scenario
import Testing

@Suite("Status notifications judged against a step's status expectation (R5)")
struct StatusJudgeTests {
    static func notifications(_ gapsMs: [Double], battery: Int = 100) -> [StatusWatcher.Notification] {
        var at: UInt64 = 1_000_000_000
        var list = [StatusWatcher.Notification(at: MonotonicTime(nanoseconds: at), status: StatusData(batteryLevel: battery, timestamp: 0, connectionQuality: 90))]
        for gap in gapsMs {
            at += UInt64(gap * 1_000_000)
            list.append(StatusWatcher.Notification(at: MonotonicTime(nanoseconds: at), status: StatusData(batteryLevel: battery, timestamp: 0, connectionQuality: 90)))
        }
        return list
    }

    @Test("every 2 s within the tolerance passes; a gap outside it, too few, or the wrong battery level fails with why")
    func judge() {
        let expectation = StatusExpectation(atLeast: 2, everyMs: 2000, toleranceMs: 100, batteryLevel: 100)
        #expect(ScenarioRunner.judge(expectation, Self.notifications([2050, 1950]), scale: 1) == [])
        #expect(ScenarioRunner.judge(expectation, Self.notifications([2150]), scale: 1).first == "status notifications 2150.0 ms apart, expected 2000.0 ± 100.0 ms")
        // The rig's latency scale widens the tolerance.
        #expect(ScenarioRunner.judge(expectation, Self.notifications([2150]), scale: 2) == [])
        #expect(ScenarioRunner.judge(expectation, Self.notifications([]), scale: 1).first == "1 status notification(s) during the step, expected at least 2")
        #expect(ScenarioRunner.judge(expectation, Self.notifications([2000], battery: 42), scale: 1).contains("battery level 42, expected 100"))
    }
}

@Suite("Commands the computer received during a step (R11.2)")
struct ReceivedJudgeTests {
    @Test("counted by kind from the receipts inside the step's window; refused writes count, others outside do not")
    func counts() {
        let receipts: [StageBreakdown.Receipt] = [
            .init(received: 100, written: [], payload: #"{"modeChange":{"mode":"basicMouse"}}"#),
            .init(received: 200, written: [210], payload: #"{"cursorMove":{"delta":[1,0]}}"#),
            .init(received: 300, written: nil, payload: #"{"modeChange":{"mode":"presentation"}}"#),
            .init(received: 900, written: [], payload: #"{"modeChange":{"mode":"basicMouse"}}"#),
        ]
        #expect(ScenarioRunner.judgeReceived(["modeChange": 2, "cursorMove": 1], receipts: receipts, from: 50, to: 500) == [])
        #expect(ScenarioRunner.judgeReceived(["modeChange": 0], receipts: receipts, from: 150, to: 250) == [])
        #expect(ScenarioRunner.judgeReceived(["modeChange": 0], receipts: receipts, from: 50, to: 1000)
            == ["the computer received 3 modeChange command(s) during the step, expected 0"])
    }
}
