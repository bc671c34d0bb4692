import Foundation
import Scenario
import ScenarioDriver
import StrictJSON
import Testing

@Suite("hil replay never says ok for what it did not judge")
struct OfflineVerdictTests {
    @Test("a scenario whose checks all need a rig is not judged, and each of its checks is named")
    func lockout() async throws {
        let scenario = try Scenario.load(contentsOf: nightlySuite + "/pairing/lockout-after-three-wrong-codes.json")
        let replay = await OfflineReplay.run(scenario)
        #expect(replay.verdict == .notJudged)
        #expect(replay.verdict.rawValue == "not judged")
        #expect(replay.judgedChecks == 0)
        #expect(replay.notJudged.count == scenario.checkCount, "\(replay.notJudged)")
        #expect(replay.notJudged.first?.hasPrefix("steps[0].expect.pairing (needs ") == true, "\(replay.notJudged)")
        #expect(replay.summary.contains("; \(scenario.checkCount) check(s) need a rig, not judged"), "\(replay.summary)")
    }

    @Test("a computer that must refuse to start runs no step offline: nothing is injected, the refusal is not judged")
    func refusal() async throws {
        let scenario = try Scenario.load(contentsOf: quickSuite + "/permissions/uinput-denied-refuses-to-start.json")
        let replay = await OfflineReplay.run(scenario)
        #expect(replay.verdict == .notJudged)
        #expect(replay.commandCount == 0 && replay.frameCount == 0, "\(replay.lines)")
        #expect(!replay.summary.contains("BTN_LEFT"), "\(replay.summary)")
        #expect(replay.notJudged == ["expectRefusal (needs a computer started without uinput)"])
    }

    @Test("judged checks that hold are ok, with the ones a rig needs counted beside them; a check-less script is not judged")
    func partlyJudged() async throws {
        let scenario = try Scenario.load(contentsOf: quickSuite + "/pairing/wrong-code-is-refused.json")
        let replay = await OfflineReplay.run(scenario)
        #expect(replay.verdict == .ok)
        #expect(replay.judgedChecks > 0 && !replay.notJudged.isEmpty)
        #expect(replay.judgedChecks + replay.notJudged.count == scenario.checkCount)
        let script = try Scenario.parse(try JSONParser().parse(#"{"name": "n", "steps": [{"tap": {}}]}"#), file: "s.json")
        let bare = await OfflineReplay.run(script)
        #expect(bare.verdict == .notJudged && bare.frameCount == 2)
    }
}
