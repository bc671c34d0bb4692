import GestureScript
import Scenario
import ScenarioDriver
import StrictJSON
import Testing
import Verifier

/// The `radio` step (issue "A radio that loses packets", item 4): what it reads, where it applies, what replay does.
@Suite("The radio step: packetErrorPercent, intervalMs, blackoutMs or reset; ble and hid only; noted offline")
struct RadioStepTests {
    /// The scenario with `json` as its first step (and a tap that checks something).
    func scenario(_ json: String) throws -> Scenario {
        try Scenario.parse(try JSONParser().parse(#"{"name": "r", "steps": [\#(json), {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}]}"#),
                           file: "r.json")
    }

    func step(_ json: String) throws -> ScriptStep { try scenario(json).script.steps[0] }

    func problem(_ json: String) -> String {
        do {
            _ = try scenario(json)
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test("a share of transmissions in percent, or reset")
    func reads() throws {
        #expect(try step(#"{"radio": {"packetErrorPercent": 10}}"#) == .radio(RadioConditions(packetErrorPercent: 10)))
        #expect(try step(#"{"radio": "reset"}"#) == .radio(nil))
        #expect(try step(#"{"radio": {"packetErrorPercent": 0}}"#).name == "radio")
        #expect(try step(#"{"radio": {"intervalMs": 30}}"#) == .radio(RadioConditions(intervalMs: 30)))
        #expect(try step(#"{"radio": {"intervalMs": 7.5, "packetErrorPercent": 5}}"#) == .radio(RadioConditions(packetErrorPercent: 5, intervalMs: 7.5)))
    }

    @Test("a blackout is a link step of its own, judged by a link expectation: reconnected, or stayedUp")
    func blackout() throws {
        let scenario = try Scenario.parse(try JSONParser().parse(#"""
            {"name": "b", "steps": [{"radio": {"blackoutMs": 3000}, "expect": {"link": "reconnected", "attemptsAtMost": 3}},
                                    {"radio": {"blackoutMs": 500}, "expect": {"link": "stayedUp"}}]}
            """#), file: "b.json")
        #expect(scenario.script.steps == [.radioBlackout(.seconds(3)), .radioBlackout(.milliseconds(500))])
        #expect(scenario.script.steps.allSatisfy(\.isLinkAction) && scenario.script.steps[0].name == "radio")
        #expect(scenario.expectations[1].link?.outcome == .stayedUp)
        let unjudged = problem(#"{"radio": {"blackoutMs": 3000}, "expect": {"keys": ["BTN_LEFT 1"]}}"#)
        #expect(unjudged.contains("a radio blackout step is judged by a link expectation"), "\(unjudged)")
    }

    @Test("what it refuses, at its path and with why", arguments: [
        (#"{"radio": {"packetErrorPercent": 100}}"#, "steps[0].radio.packetErrorPercent: 100 is outside 0 to under 100"),
        (#"{"radio": {"packetErrorPercent": -1}}"#, "steps[0].radio.packetErrorPercent: -1 is outside"),
        (#"{"radio": {"intervalMs": 31}}"#, "steps[0].radio.intervalMs: 31 is not a connection interval: 7.5 to 4000 ms in steps of 1.25"),
        (#"{"radio": {"intervalMs": 5}}"#, "steps[0].radio.intervalMs: 5 is not a connection interval"),
        (#"{"radio": {"intervalMs": 4001.25}}"#, "is not a connection interval"),
        (#"{"radio": {"blackoutMs": 0}}"#, "steps[0].radio.blackoutMs: 0 is outside 1 to 60000 ms"),
        (#"{"radio": {"blackoutMs": 3000, "intervalMs": 30}}"#, "steps[0].radio.intervalMs: a blackout is a step of its own"),
        (#"{"radio": {"blackoutMs": "long"}}"#, "steps[0].radio.blackoutMs"),
        (#"{"radio": {}}"#, "steps[0].radio: give packetErrorPercent (0 to under 100), intervalMs (7.5 to 4000), blackoutMs, or \"reset\""),
        (#"{"radio": "off"}"#, "expected \"reset\""),
        (#"{"radio": {"packetErrorPercnt": 10}}"#, "packetErrorPercnt: unknown key (did you mean \"packetErrorPercent\"?)"),
    ])
    func refused(json: String, says: String) {
        let message = problem(json)
        #expect(message.contains(says), "\(message)")
    }

    @Test("replay notes the step, applies nothing, and judges the gestures after it as ever")
    func offline() async throws {
        let scenario = try Scenario.parse(try JSONParser().parse(#"""
            {"name": "noisy", "steps": [{"radio": {"packetErrorPercent": 30}},
              {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "nothingElse": true, "withinMs": 500}},
              {"radio": "reset"}]}
            """#), file: "noisy.json")
        let replay = await OfflineReplay.run(scenario)
        #expect(replay.verdict == .ok && replay.errors.isEmpty, "\(replay.errors)")
    }

    @Test("replay: a blackout past the default supervision timeout drops the link and the phone reconnects; a short one does not", arguments: [
        (3000, "link dropped (the computer's radio off) for 3000.0 ms"), (500, "the link lived through 500.0 ms of radio blackout"),
    ])
    func offlineBlackout(ms: Int, says: String) async throws {
        let scenario = try Scenario.parse(try JSONParser().parse(#"""
            {"name": "blackout", "run": {"reconnectIntervalMs": 500},
             "steps": [{"radio": {"blackoutMs": \#(ms)}, "expect": {"link": "reconnected"}},
                       {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "withinMs": 500}}]}
            """#), file: "blackout.json")
        let replay = await OfflineReplay.run(scenario)
        #expect(replay.verdict == .ok, "\(replay.errors)")
        #expect(replay.steps.first?.message.contains(says) == true, "\(replay.steps.first?.message ?? "no step")")
    }

    @Test("each step records the radio it ran under, from the first radio step on; a step changes only what it names")
    func recorded() async throws {
        let scenario = try Scenario.parse(try JSONParser().parse(#"""
            {"name": "radio", "steps": [{"tap": {}}, {"radio": {"packetErrorPercent": 10}}, {"tap": {}},
              {"radio": {"intervalMs": 30}}, {"radio": {"blackoutMs": 500}, "expect": {"link": "stayedUp"}}, {"tap": {}},
              {"radio": "reset"}, {"tap": {}}]}
            """#), file: "radio.json")
        let replay = await OfflineReplay.run(scenario)
        #expect(replay.steps.map(\.radio) == [
            nil, "packet error rate 10.0 %", "packet error rate 10.0 %", "packet error rate 10.0 %, connection interval 30.0 ms",
            "blackout 500.0 ms, packet error rate 10.0 %, connection interval 30.0 ms",
            "packet error rate 10.0 %, connection interval 30.0 ms", "the rig's own", "the rig's own",
        ])
    }

    @Test("a link that lived through a blackout is not resynced: the phone sends what it would after a wait, and no more")
    func livedThrough() async throws {
        func replay(_ step: String) async throws -> [String] {
            let scenario = try Scenario.parse(try JSONParser().parse(#"""
                {"name": "short", "steps": [{"tap": {}}, \#(step), {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}]}
                """#), file: "short.json")
            return await OfflineReplay.run(scenario).lines.map { String($0.drop { $0 != "{" }) }
        }
        let waited = try await replay(#"{"wait": {"ms": 500}}"#)
        #expect(try await replay(#"{"radio": {"blackoutMs": 500}, "expect": {"link": "stayedUp"}}"#) == waited)
        #expect(try await replay(#"{"radio": {"blackoutMs": 2500}, "expect": {"link": "reconnected"}}"#).count > waited.count,
                "after a drop the phone tells the computer its mode again")
    }

    @Test("the link expectation tells a blackout the link lived through from one it dropped and came back from")
    func judged() {
        var lived = LinkObservation(connected: true, attempts: 0, elapsedMs: 500, summary: "")
        lived.wentDown = false
        let back = LinkObservation(connected: true, attempts: 1, elapsedMs: 3100, summary: "")
        #expect(Judge.link(LinkExpectation(outcome: .stayedUp), lived, scale: 1).isEmpty)
        #expect(Judge.link(LinkExpectation(outcome: .reconnected), back, scale: 1).isEmpty)
        #expect(Judge.link(LinkExpectation(outcome: .reconnected), lived, scale: 1)
            == ["the link never went down, expected it to drop and the phone to reconnect"])
        #expect(Judge.link(LinkExpectation(outcome: .stayedUp), back, scale: 1) == ["the link went down, expected it to stay up"])
    }

    @Test("on a link with no radio (tcp, udp) the step ends the run saying where it applies")
    func elsewhere() async throws {
        let error = await #expect(throws: DriverError.self) {
            _ = try await ScenarioDriverTests.run(#"{"name": "noisy", "steps": [{"radio": {"packetErrorPercent": 10}}]}"#)
        }
        #expect(error.map { "\($0)" }?.contains("a radio step changes the rig's emulated radio under ble and hid") == true, "\(String(describing: error))")
    }
}
