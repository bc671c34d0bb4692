import GestureScript
import Scenario
import ScenarioDriver
import StrictJSON
import Testing

/// The `radio` step (issue "A radio that loses packets", item 4): what it reads, where it applies, what replay does.
@Suite("The radio step: packetErrorPercent or reset; ble and hid only; noted offline")
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
    }

    @Test("what it refuses, at its path and with why", arguments: [
        (#"{"radio": {"packetErrorPercent": 100}}"#, "steps[0].radio.packetErrorPercent: 100 is outside 0 to under 100"),
        (#"{"radio": {"packetErrorPercent": -1}}"#, "steps[0].radio.packetErrorPercent: -1 is outside"),
        (#"{"radio": {"intervalMs": 30}}"#, "steps[0].radio.intervalMs: the radio model does not change a link's interval"),
        (#"{"radio": {"blackoutMs": 3000}}"#, "steps[0].radio.blackoutMs: the radio model does not change a link's interval or end it by supervision timeout"),
        (#"{"radio": {}}"#, "steps[0].radio: give packetErrorPercent"),
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

    @Test("on a link with no radio (tcp, udp) the step ends the run saying where it applies")
    func elsewhere() async throws {
        let error = await #expect(throws: DriverError.self) {
            _ = try await ScenarioDriverTests.run(#"{"name": "noisy", "steps": [{"radio": {"packetErrorPercent": 10}}]}"#)
        }
        #expect(error.map { "\($0)" }?.contains("a radio step changes the rig's emulated radio under ble and hid") == true, "\(String(describing: error))")
    }
}
