import GestureScript
import StrictJSON
import Testing

@Suite("Network steps: network conditions, a partition, forged packets")
struct NetworkStepTests {
    static func step(_ json: String) throws -> ScriptStep {
        let script = try GestureScript.parse(try JSONParser().parse(#"{"name":"n","steps":[\#(json)]}"#), file: "n.json")
        return try #require(script.steps.first)
    }

    @Test("conditions, reset, partition and forged packets are read with their defaults")
    func read() throws {
        #expect(try Self.step(#"{"network": {"delayMs": 20, "jitterMs": 5, "lossPercent": 5}}"#)
            == .network(NetworkConditions(delayMs: 20, jitterMs: 5, lossPercent: 5)))
        #expect(try Self.step(#"{"network": {"lossPercent": 100}}"#) == .network(NetworkConditions(lossPercent: 100)))
        #expect(try Self.step(#"{"network": "reset"}"#) == .network(nil))
        #expect(try Self.step(#"{"partition": {"forMs": 3000}}"#) == .partition(.seconds(3)))
        #expect(try Self.step(#"{"forgedPackets": {"count": 200}}"#) == .forgedPackets(count: 200, from: .attacker))
        #expect(try Self.step(#"{"forgedPackets": {"count": 5, "from": "phone"}}"#) == .forgedPackets(count: 5, from: .phone))
        #expect(ScriptStep.partition(.seconds(1)).isLinkAction)
        #expect(!ScriptStep.network(nil).touchesTheScreen)
    }

    @Test("bad values are refused with their JSON path", arguments: [
        (#"{"network": {"lossPercent": 101}}"#, "steps[0].network.lossPercent: 101.0 is outside 0...100"),
        (#"{"network": {"delayMs": -1}}"#, "steps[0].network.delayMs: -1.0 is outside 0...10000"),
        (#"{"network": {"delayMs": 5, "jitterMs": 10}}"#, "steps[0].network.jitterMs: jitter 10.0 ms is more than the delay 5.0 ms"),
        (#"{"network": {"bandwidth": 5}}"#, "steps[0].network.bandwidth: unknown key"),
        (#"{"network": "off"}"#, #"steps[0].network: expected "reset""#),
        (#"{"partition": {}}"#, "steps[0].partition: missing"),
        (#"{"partition": {"forMs": -5}}"#, "steps[0].partition.forMs"),
        (#"{"forgedPackets": {"count": 0}}"#, "steps[0].forgedPackets.count"),
        (#"{"forgedPackets": {"count": 5, "from": "mars"}}"#, #"steps[0].forgedPackets.from: unknown value "mars""#),
    ])
    func refused(_ json: String, _ problem: String) throws {
        do {
            _ = try Self.step(json)
            Issue.record("\(json) was accepted")
        } catch let error as ScriptError {
            #expect(error.problems.contains { $0.hasPrefix(problem) }, "\(error.problems)")
        }
    }
}
