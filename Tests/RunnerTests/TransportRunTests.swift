@testable import Runner
import ScenarioDriver
import Testing

@Suite("Runs over more than one transport: phases stay keys, the TCP app's backoff")
struct TransportRunTests {
    @Test("a phase that happens twice (a second Bonjour discovery) gets its own key in results.json")
    func phasesStayUnique() {
        let log = PhaseLog(start: .now)
        log.record("connected")
        log.record("computer found over Bonjour")
        log.record("computer found over Bonjour")
        log.record("computer found over Bonjour")
        #expect(log.phases.map(\.name) == [
            "connected", "computer found over Bonjour", "computer found over Bonjour (2)", "computer found over Bonjour (3)",
        ])
    }

    @Test("the network app backs off 1, 2, 4, 8, 16 units and gives up after the fifth try")
    func backoff() {
        var policy = ReconnectPolicy(interval: .milliseconds(100), maxAttempts: 5, doubling: true)
        policy.linkLost(at: .zero)
        var tries: [Duration] = []
        while let next = policy.nextAttemptAt {
            tries.append(next)
            policy.attemptFailed(at: next)
        }
        #expect(tries == [100, 300, 700, 1500, 3100].map { .milliseconds($0) })
        #expect(policy.state == .disconnected)
        #expect(policy.label == "disconnected")
    }

    @Test("RemoteTouch's BLE app keeps its fixed interval")
    func fixed() {
        var policy = ReconnectPolicy(interval: .milliseconds(500), maxAttempts: 3)
        policy.linkLost(at: .zero)
        var tries: [Duration] = []
        while let next = policy.nextAttemptAt {
            tries.append(next)
            policy.attemptFailed(at: next)
        }
        #expect(tries == [500, 1000, 1500].map { .milliseconds($0) })
    }
}
