import Scenario
import StrictJSON
import Testing

/// `run.sendJitterMs`: a phone whose sends leave the gesture model's grid (issue "Any phone, any stack").
@Suite("Send jitter: each command up to J ms late, the order and the events unchanged, the same on every run")
struct SendJitterTests {
    static func swipe(jitter: Double) -> String {
        #"""
        {"name": "jitter", "settings": {"acceleration": "none"}, "run": {"sendJitterMs": \#(jitter)},
         "steps": [{"swipe": {"from": [100, 300], "to": [220, 300], "durationMs": 400},
                    "expect": {"motion": {"REL_X": 120}, "nothingElse": true, "withinMs": 500}}]}
        """#
    }

    func sendTimes(_ run: ScenarioDriverTests.Run) -> [UInt64] { run.drive.sends.map(\.at) }

    @Test("at 8 ms: the sends leave the 16 ms grid by 0 to 8 ms, in order, and the swipe's events are exactly the same")
    func jittered() async throws {
        let grid = try await ScenarioDriverTests.run(Self.swipe(jitter: 0))
        let jittered = try await ScenarioDriverTests.run(Self.swipe(jitter: 8))
        #expect(grid.steps.map(\.outcome) == [.passed] && jittered.steps.map(\.outcome) == [.passed])
        #expect(grid.link.sent == jittered.link.sent, "the same commands, in the same order")
        let (regular, late) = (sendTimes(grid), sendTimes(jittered))
        try #require(regular.count == late.count && regular.count > 10)
        let gaps = zip(regular.dropFirst(), regular).map { $0 - $1 }
        let lateGaps = zip(late.dropFirst(), late).map { Int64($0) - Int64($1) }
        #expect(Set(gaps).count == 1, "on the grid every gap is the same: \(Set(gaps))")
        #expect(Set(lateGaps).count > 3, "jittered, the gaps vary: \(lateGaps)")
        // Each send is late by at most the jitter plus what earlier jitter pushed it (sends stay in order).
        for (at, grid) in zip(late, regular) {
            #expect(at >= grid && at - grid <= 8_000_000 * UInt64(late.count), "\(at) against \(grid)")
        }
        #expect(zip(late, regular).contains { $0 != $1 }, "some send left the grid")
        #expect(zip(late.dropFirst(), late).allSatisfy { $0 >= $1 }, "in order")
    }

    @Test("a fixed seed: two runs jitter alike, so a replay agrees with the rig's run")
    func reproducible() async throws {
        let first = try await ScenarioDriverTests.run(Self.swipe(jitter: 8))
        let second = try await ScenarioDriverTests.run(Self.swipe(jitter: 8))
        #expect(sendTimes(first).map { $0 - sendTimes(first)[0] } == sendTimes(second).map { $0 - sendTimes(second)[0] })
    }

    @Test("sendJitterMs outside 0…100 is refused at its JSON path")
    func refused() {
        for bad in ["-1", "101", "\"5\""] {
            #expect(throws: (any Error).self, "\(bad)") { try Scenario.parse(try JSONParser().parse(Self.swipe(jitter: 0).replacingOccurrences(of: "\"sendJitterMs\": 0.0", with: "\"sendJitterMs\": \(bad)")), file: "t.json") }
        }
    }
}
