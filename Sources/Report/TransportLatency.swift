public import LatencyStats

/// Step latencies per transport (`ble`, `tcp`), all kinds together and per kind: the report's "latency by
/// transport", computed from the samples (never from other percentiles). Nothing when no scenario names its
/// transport (results from before transports).
public struct TransportLatency: Sendable, Equatable {
    public var transport: String
    public var summary: LatencySummary
    /// Per step kind, sorted by kind.
    public var byKind: [KindLatency]

    public init(transport: String, summary: LatencySummary, byKind: [KindLatency]) {
        self.transport = transport
        self.summary = summary
        self.byKind = byKind
    }

    /// One entry per transport that has step latencies, in the order the transports first appear.
    public static func of(_ scenarios: [ScenarioRecord]) -> [TransportLatency] {
        var order: [String] = []
        for scenario in scenarios {
            if let transport = scenario.transport, !order.contains(transport) { order.append(transport) }
        }
        return order.compactMap { transport in
            let latency = RunLatency.recomputed(from: scenarios.filter { $0.transport == transport })
            guard latency.all.count > 0 else { return nil }
            return TransportLatency(transport: transport, summary: latency.all, byKind: latency.byKind)
        }
    }
}
