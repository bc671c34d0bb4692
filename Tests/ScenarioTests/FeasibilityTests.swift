import Foundation
import Scenario
import StrictJSON
import Testing

/// What no rig can make pass is refused with its JSON path (`Scenario.feasibilityProblems`, applied by hil validate,
/// replay, run and record alike): each case of issue 54's item 3.
@Suite("feasibility: a scenario no rig could pass is refused, with the JSON path")
struct FeasibilityTests {
    private func problems(_ run: String, _ steps: String) throws -> [String] {
        let text = #"{"name": "n", "run": "# + run + #", "steps": ["# + steps + "]}"
        let value = try JSONParser().parse(text)
        do {
            return try Scenario.parse(value, file: "s.json").feasibilityProblems.map(\.text)
        } catch {
            return error.problems
        }
    }

    static let expectTap = #"{"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}"#

    @Test("a link that stays up through a step that takes it down", arguments: [
        (#"{"linkDrop": {"forMs": 1000}, "expect": {"link": "stayedUp"}}"#, "linkDrop"),
        (#"{"partition": {"forMs": 1000}, "expect": {"link": "stayedUp"}}"#, "partition"),
        (#"{"restartPeripheral": {}, "expect": {"link": "stayedUp"}}"#, "restartPeripheral"),
        (#"{"restartBluetoothd": {}, "expect": {"link": "stayedUp"}}"#, "restartBluetoothd"),
    ])
    func stayedUp(step: String, name: String) throws {
        let run = name == "partition" ? #"{"transports": ["tcp"]}"# : name == "restartBluetoothd" ? #"{"transports": ["ble"]}"# : "{}"
        let found = try problems(run, step)
        #expect(found == ["steps[0].expect.link: a \(name) step takes the link down by definition, so it cannot stay up: expect \"reconnected\" or \"disconnected\" (\"stayedUp\" is a radio blackout's, shorter than the supervision timeout)"], "\(found)")
    }

    @Test("reconnect and stayedUp: refused by the reader, which knows the link is down before it")
    func reconnectStayedUp() throws {
        let found = try problems("{}", #"{"disconnect": {}}, {"reconnect": {}, "expect": {"link": "stayedUp"}}"#)
        #expect(found.contains { $0.hasPrefix("steps[1].expect.link: a reconnect step takes the link down by definition") }, "\(found)")
    }

    @Test("a blackout judged against the wrong side of the 2 s supervision timeout")
    func blackouts() throws {
        let long = try problems(#"{"transports": ["ble", "hid"]}"#, #"{"radio": {"blackoutMs": 3000}, "expect": {"link": "stayedUp"}}"#)
        #expect(long == ["steps[0].expect.link: a blackout of 3000.0 ms is longer than the links' 2000.0 ms supervision timeout, so the link ends (reason 0x08): expect \"reconnected\" (or \"disconnected\"), not \"stayedUp\""], "\(long)")
        let short = try problems(#"{"transports": ["ble", "hid"]}"#, #"{"radio": {"blackoutMs": 800}, "expect": {"link": "reconnected"}}"#)
        #expect(short == ["steps[0].expect.link: a blackout of 800.0 ms is shorter than the links' 2000.0 ms supervision timeout, so the link lives through it: expect \"stayedUp\", not \"reconnected\""], "\(short)")
        #expect(try problems(#"{"transports": ["ble", "hid"]}"#, #"{"radio": {"blackoutMs": 800}, "expect": {"link": "stayedUp"}}"#) == [])
    }

    @Test("an outage of 0 ms")
    func zeroOutage() throws {
        let found = try problems("{}", #"{"linkDrop": {"forMs": 0}, "expect": {"link": "reconnected"}}"#)
        #expect(found == ["steps[0].linkDrop.forMs: an outage of 0 ms takes nothing down: give how long the link is down"], "\(found)")
    }

    @Test("a step bound to some transports in a scenario that applies to others", arguments: [
        (#"{"transport": "tcp", "transports": ["tcp"]}"#, #"{"radio": {"packetErrorPercent": 10}}"#, "steps[0].radio: a radio step (the vm rig's emulated radio) runs on ble and hid only, and this scenario applies to tcp"),
        ("{}", #"{"radio": {"intervalMs": 30}}"#, "steps[0].radio: a radio step (the vm rig's emulated radio) runs on ble and hid only, and this scenario applies to tcp (it names no run.transports: every transport)"),
        (#"{"transports": ["ble"]}"#, #"{"network": {"delayMs": 20}}"#, "steps[0].network: a network step (netem between the hosts) runs on tcp and udp only, and this scenario applies to ble"),
        (#"{"transports": ["tcp", "udp"]}"#, #"{"forgedPackets": {"count": 5}}"#, "steps[0].forgedPackets: forgedPackets (the udp transport's movement port) runs on udp only, and this scenario applies to tcp"),
    ])
    func transports(run: String, step: String, problem: String) throws {
        let found = try problems(run, step + ", " + Self.expectTap)
        #expect(found.first?.hasPrefix(problem) == true, "\(found)")
    }

    @Test("text a US layout cannot type: the computer refuses all of it")
    func untypeable() throws {
        let found = try problems("{}", #"{"text": "café", "expect": {"keys": ["KEY_C 1"]}}"#)
        #expect(found == [#"steps[0].text: character 3 "é" (U+E9) cannot be typed on a US layout (docs/protocol-keys.md, "Text"): the computer refuses the whole text and types nothing"#], "\(found)")
    }
}
