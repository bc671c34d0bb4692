import ScenarioDriver
import Testing

/// A link adopts the faults its rig can inject (`RigFaults`, `NetworkFaults`); a step that needs one the link does not
/// have ends the run with why, instead of a default implementation that throws.
@Suite("Faults a link does not take")
struct RigFaultsTests {
    @Test("network, partition and forgedPackets steps on a link without network faults say where they apply")
    func networkFaultsOnABLELikeLink() async throws {
        let cases = [
            (#"{"network": {"delayMs": 20}}"#, "a network step sets delay and loss on the network between the phone and computer hosts: it does not apply to this transport"),
            (#"{"partition": {"forMs": 500}, "expect": {"link": "reconnected"}}"#, "a partition step cuts the network between the phone and computer hosts: it does not apply to this transport"),
            (#"{"forgedPackets": {"count": 3, "from": "attacker"}}"#, "forgedPackets sends UDP movement packets: it applies to the udp transport only"),
        ]
        for (step, message) in cases {
            // FakeLink takes the rig's link faults (a drop, a stack restart) but none on a network.
            let error = await #expect(throws: DriverError.self) {
                _ = try await ScenarioDriverTests.run(#"{"name": "fault", "steps": [\#(step)]}"#)
            }
            #expect(error.map { "\($0)" }?.hasPrefix(message) == true, "\(String(describing: error))")
        }
    }

    @Test("a link drop on a link that takes faults is driven as before")
    func linkDropStillWorks() async throws {
        let run = try await ScenarioDriverTests.run(#"""
            {"name": "drop", "run": {"reconnectIntervalMs": 500},
             "steps": [{"linkDrop": {"forMs": 600}, "expect": {"link": "reconnected"}}]}
            """#)
        #expect(run.steps.map(\.outcome) == [.passed], "\(run.steps.map(\.message))")
    }
}
