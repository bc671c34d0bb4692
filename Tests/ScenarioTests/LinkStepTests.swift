import Foundation
import GestureScript
import HILTestSupport
import Scenario
import ScenarioDriver
import StrictJSON
import Testing
import Verifier

@Suite("Scenarios: link steps (linkDrop, disconnect, reconnect)")
struct LinkStepTests {
    @Test("disconnect and reconnect are read with their link expectations")
    func reads() throws {
        let scenario = try Scenario.parse(try JSONParser().parse(#"""
            {"name": "manual", "steps": [
              {"disconnect": {}, "expect": {"link": "disconnected", "withinMs": 3000}},
              {"reconnect": {}},
              {"reconnect": {"timeoutMs": 2500}, "expect": {"link": "disconnected"}}
            ]}
            """#), file: "manual.json")
        #expect(scenario.script.steps == [.disconnect, .reconnect(timeout: .seconds(10)), .reconnect(timeout: .milliseconds(2500))])
        #expect(scenario.expectations.map(\.link) == [
            LinkExpectation(outcome: .disconnected, withinMs: 3000), nil, LinkExpectation(outcome: .disconnected),
        ])
        #expect(scenario.expectations.map(\.events) == [nil, nil, nil])
    }

    @Test("misplaced and contradictory link expectations are reported with their JSON paths")
    func problems() throws {
        let value = try JSONParser().parse(#"""
            {"name": "bad links", "steps": [
              {"swipe": {"to": [1, 1], "durationMs": 100}, "expect": {"link": "reconnected"}},
              {"disconnect": {}, "expect": {"link": "reconnected"}},
              {"disconnect": {}, "expect": {"link": "disconnected", "attemptsAtMost": 2}},
              {"linkDrop": {"forMs": 100}, "expect": {"motion": {"REL_X": "positive"}}},
              {"reconnect": {"timeoutMs": 0}},
              {"disconnect": {"now": true}}
            ]}
            """#)
        do {
            _ = try Scenario.parse(value, file: "Scenarios/link/bad.json")
            Issue.record("a broken scenario parsed")
        } catch {
            #expect(error.problems == [
                "steps[4].reconnect.timeoutMs: 0 ms is outside (0...600000]",
                "steps[5].disconnect.now: unknown key; allowed here: no keys",
                "steps[0].expect.link: only a linkDrop, partition, radio blackout, disconnect, reconnect, restartBluetoothd or restartPeripheral step has a link expectation; this is a swipe step",
                "steps[1].expect.link: after the user disconnects the phone shows \"disconnected\" and does not reconnect by itself; expected \"disconnected\"",
                "steps[2].expect.attemptsAtMost: unknown key; allowed here: \"link\", \"withinMs\"",
                "steps[3].expect: a linkDrop step is judged by a link expectation, e.g. {\"link\": \"reconnected\"}",
            ])
        }
    }

    @Test("fault steps: a drop of either side's radio and a bluetoothd restart, with their expectations and bad inputs")
    func faultSteps() throws {
        let scenario = try Scenario.parse(try JSONParser().parse(#"""
            {"name": "faults", "steps": [
              {"linkDrop": {"forMs": 1500, "adapter": "phone"}, "expect": {"link": "reconnected", "withinMs": 5000}},
              {"linkDrop": {"forMs": 100}},
              {"restartBluetoothd": {}, "expect": {"link": "reconnected", "servingWithinMs": 5000}}
            ]}
            """#), file: "faults.json")
        #expect(scenario.script.steps == [.linkDrop(.milliseconds(1500), side: .phone), .linkDrop(.milliseconds(100), side: .computer), .restartBluetoothd])
        #expect(scenario.expectations.map(\.link) == [
            LinkExpectation(outcome: .reconnected, withinMs: 5000), nil, LinkExpectation(outcome: .reconnected, servingWithinMs: 5000),
        ])
        let bad = try JSONParser().parse(#"""
            {"name": "bad faults", "steps": [
              {"linkDrop": {"forMs": 100, "adapter": "both"}},
              {"restartBluetoothd": {"signal": "KILL"}},
              {"restartBluetoothd": {}, "expect": {"link": "reconnected", "attemptsAtMost": 2}},
              {"linkDrop": {"forMs": 100}, "expect": {"link": "reconnected", "servingWithinMs": 10}},
              {"restartBluetoothd": {}, "expect": {"absent": true}}
            ]}
            """#)
        do {
            _ = try Scenario.parse(bad, file: "Scenarios/faults/bad.json")
            Issue.record("a broken scenario parsed")
        } catch {
            #expect(error.problems == [
                "steps[0].linkDrop.adapter: unknown value \"both\"; expected one of \"computer\", \"phone\"",
                "steps[1].restartBluetoothd.signal: unknown key; allowed here: no keys",
                "steps[2].expect.attemptsAtMost: unknown key; allowed here: \"link\", \"withinMs\", \"servingWithinMs\"",
                "steps[3].expect.servingWithinMs: unknown key; allowed here: \"link\", \"attemptsAtMost\", \"withinMs\"",
                "steps[4].expect: a restartBluetoothd step is judged by a link expectation, e.g. {\"link\": \"reconnected\"}",
            ])
        }
    }

    @Test("offline, a link that goes down mid-drag releases the button; the lift afterwards releases nothing")
    func offlineRelease() async throws {
        let text = #"""
            {"name": "mid-drag", "settings": {"acceleration": "none"}, "steps": [
              {"touches": [{"atMs": 0, "points": [[100, 300]]}, {"atMs": 600, "points": [[100, 300]]},
                           {"atMs": 700, "points": [[130, 300]]}],
               "expect": {"keys": ["BTN_LEFT 1"], "motion": {"REL_X": {"total": 30, "tolerance": 6}}}},
              {"linkDrop": {"forMs": 1000}, "expect": {"link": "reconnected"}},
              {"touches": [{"atMs": 0, "points": [[130, 300]]}, {"atMs": 20, "points": []}], "expect": {"absent": true, "forMs": 300}}
            ]}
            """#
        let scenario = try Scenario.parse(try JSONParser().parse(text), file: "mid-drag.json")
        let replay = await OfflineReplay.run(scenario)
        #expect(replay.errors == [])
        #expect(replay.lines.contains { $0.hasSuffix("the link drops: the computer releases [BTN_LEFT 0]") }, "\(replay.lines)")
        // Without the drop the lift ends the drag with BTN_LEFT 0, which the absent expectation refuses.
        var twin = scenario
        twin.script.steps[1] = .wait(.seconds(1))
        twin.expectations[1].link = nil
        #expect(await OfflineReplay.run(twin).errors.count == 1)
    }

    @Test("offline, the phone sends nothing while the link is down and re-sends its mode when it is back")
    func offline() async throws {
        let text = #"""
            {"name": "down", "settings": {"acceleration": "none"}, "steps": [
              {"disconnect": {}},
              {"swipe": {"from": [100, 300], "to": [160, 300], "durationMs": 150}, "expect": {"absent": ["EV_REL"], "forMs": 300}},
              {"reconnect": {}},
              {"swipe": {"from": [100, 300], "to": [160, 300], "durationMs": 150}, "expect": {"motion": {"REL_X": {"total": 60, "tolerance": 3}}}}
            ]}
            """#
        let scenario = try Scenario.parse(try JSONParser().parse(text), file: "down.json")
        let replay = await OfflineReplay.run(scenario)
        #expect(replay.errors == [])
        #expect(replay.checkedSteps == 2)
        #expect(replay.lines.filter { $0.hasSuffix("not sent, the link is down") }.count == 10)
        #expect(replay.lines.filter { $0.contains("modeChange") }.count == 2, "\(replay.lines)")

        // The twin that expects the swipe made while disconnected to move the cursor must fail.
        var twin = scenario
        var moves = StepExpectation(withinMs: 300)
        moves.motion = [.relX: .direction(.positive)]
        twin.expectations[1].events = moves
        #expect(await OfflineReplay.run(twin).errors.count == 1)
    }
}
