import Radio

/// What the vm rig's bridges answered they hold once a command was carried out (`BridgeAnswer`, read here for the run's
/// links and calibrate): each bridge's packet error rate and extra delay, the links they time, and a refusal.
package struct RadioHolding: Sendable, Hashable {
    /// A link a bridge times: its handle (as the bridge's host knows it) and its interval.
    package struct Link: Sendable, Hashable {
        package var handle: Int
        package var intervalMs: Double
    }

    /// Each bridge's packet error rate, in the bridges' order.
    package var errorRates: [Double]
    /// Each bridge's extra delay, in ms.
    package var delaysMs: [Double]
    /// Every link the bridges time.
    package var links: [Link]
    /// The first bridge's refusal ("the radio bridge refused: …"); nil when every bridge carried the command out.
    package var refusal: String?

    init(_ answers: [BridgeAnswer]) {
        errorRates = answers.map(\.errorRate)
        delaysMs = answers.map(\.delayMs)
        links = answers.flatMap { $0.links.map { Link(handle: Int($0.handle), intervalMs: $0.intervalMs) } }
        refusal = answers.first { !$0.accepted }.map { "the radio bridge refused: \($0.message)" }
    }
}

extension RunningRig.Radio {
    /// Every bridge fails each transmission with chance `rate` from now on.
    package func setErrorRate(_ rate: Double) async throws(RigError) -> RadioHolding {
        RadioHolding(try await control.send(.errorRate(rate)))
    }

    /// Every bridge fails every transmission for `milliseconds`, from now.
    package func blackout(milliseconds: Double) async throws(RigError) -> RadioHolding {
        RadioHolding(try await control.send(.blackout(milliseconds: milliseconds)))
    }

    /// Every ACL packet that reaches a bridge from now on waits `milliseconds` longer.
    package func setDelay(milliseconds: Double) async throws(RigError) -> RadioHolding {
        RadioHolding(try await control.send(.delay(milliseconds: milliseconds)))
    }

    /// What the bridges hold now.
    package func holding() async throws(RigError) -> RadioHolding {
        RadioHolding(try await control.send(.state))
    }
}
