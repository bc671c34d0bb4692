import ScenarioDriver
import Testing

@Suite("Reconnect policy (R12)")
struct ReconnectPolicyTests {
    @Test("a dropped link reconnects every 5 s, at most 10 times, then shows disconnected")
    func givesUpAfterTen() {
        var policy = ReconnectPolicy()
        #expect(policy.label == "connected")
        policy.linkLost(at: .seconds(100))
        #expect(policy.state == .reconnecting(attempt: 1))
        #expect(policy.label == "reconnecting")
        #expect(policy.nextAttemptAt == .seconds(105))
        var times: [Duration] = []
        while let next = policy.nextAttemptAt {
            times.append(next)
            policy.attemptFailed(at: next)
        }
        #expect(times == (1...10).map { .seconds(100 + 5 * $0) })
        #expect(policy.state == .disconnected)
        #expect(policy.label == "disconnected")
    }

    @Test("a successful try shows connected again; the next drop starts counting afresh")
    func recovers() {
        var policy = ReconnectPolicy()
        policy.linkLost(at: .zero)
        policy.attemptFailed(at: .seconds(5))
        policy.attemptFailed(at: .seconds(10))
        #expect(policy.state == .reconnecting(attempt: 3))
        policy.connected()
        #expect(policy.state == .connected && policy.nextAttemptAt == nil)
        policy.linkLost(at: .seconds(20))
        #expect(policy.state == .reconnecting(attempt: 1))
        #expect(policy.nextAttemptAt == .seconds(25))
    }

    @Test("the interval and the number of tries are settings (scenarios shorten them)")
    func settings() {
        var policy = ReconnectPolicy(interval: .milliseconds(200), maxAttempts: 2)
        policy.linkLost(at: .zero)
        policy.attemptFailed(at: .milliseconds(200))
        #expect(policy.nextAttemptAt == .milliseconds(400))
        policy.attemptFailed(at: .milliseconds(400))
        #expect(policy.state == .disconnected)
    }

    @Test("a drop while not connected changes nothing")
    func ignoresRepeatedDrops() {
        var policy = ReconnectPolicy()
        policy.linkLost(at: .zero)
        policy.linkLost(at: .seconds(1))
        #expect(policy.nextAttemptAt == .seconds(5))
    }
}

@Suite("Device store (R6)")
struct DeviceStoreTests {
    @Test("at most 5 devices; a sixth evicts the least recently connected")
    func evictsOldest() {
        var store = DeviceStore()
        for index in 1...5 {
            #expect(store.remember(address: "00:00:00:00:00:0\(index)", name: "Mac \(index)", at: Double(index * 10)) == nil)
        }
        // Reconnecting to the first makes the second the oldest.
        store.remember(address: "00:00:00:00:00:01", name: "Mac 1", at: 100)
        let evicted = store.remember(address: "00:00:00:00:00:06", name: "Mac 6", at: 110)
        #expect(evicted?.address == "00:00:00:00:00:02")
        #expect(store.devices.count == 5)
        #expect(Set(store.devices.map(\.address)) == ["00:00:00:00:00:01", "00:00:00:00:00:03", "00:00:00:00:00:04", "00:00:00:00:00:05", "00:00:00:00:00:06"])
    }

    @Test("the store round-trips through its JSON; a broken or overfull file is refused")
    func persistence() throws {
        var store = DeviceStore()
        store.remember(address: "00:AA:01:00:00:00", name: "RemoteTouch", at: 1_700_000_000.5)
        #expect(try DeviceStore.parse(store.json()) == store)
        #expect(throws: (any Error).self) { try DeviceStore.parse("{") }
        let six = (1...6).map { #"{"address":"a\#($0)","name":"n","lastConnected":1}"# }.joined(separator: ",")
        #expect(throws: (any Error).self) { try DeviceStore.parse("[\(six)]") }
    }
}
