package import LatencyStats

/// Step latencies per transport (`ble`, `hid`, `tcp`, `udp`), all kinds together and per kind: the report's
/// "latency by transport", computed from the samples (never from other percentiles). Nothing when no scenario names
/// its transport (results from before transports).
package struct TransportLatency: Sendable, Equatable {
    package var transport: String
    package var summary: LatencySummary
    /// Per step kind, sorted by kind.
    package var byKind: [KindLatency]
    /// The link stage of every step whose commands matched the computer's receipts: handed to the link → received
    /// (docs/results-format.md). The figure the product documents' claims are about; nil when none matched.
    package var link: LatencySummary?

    package init(transport: String, summary: LatencySummary, byKind: [KindLatency], link: LatencySummary? = nil) {
        self.transport = transport
        self.summary = summary
        self.byKind = byKind
        self.link = link
    }

    /// What the product documents claim for a transport's latency (seeds/connectivity-layer.md, "Performance
    /// Characteristics": Bluetooth mode ~5–10 ms, Wi-Fi UDP ~1–3 ms on a local network); nil where they claim none.
    package static func claim(_ transport: String) -> String? {
        switch transport {
        case "ble", "hid": "~5–10 ms"
        case "udp": "~1–3 ms"
        default: nil
        }
    }

    /// One entry per transport that has step latencies, in the order the transports first appear.
    package static func of(_ scenarios: [ScenarioResult]) -> [TransportLatency] {
        var order: [String] = []
        for scenario in scenarios {
            if let transport = scenario.transport, !order.contains(transport) { order.append(transport) }
        }
        return order.compactMap { transport in
            let records = scenarios.filter { $0.transport == transport }
            let latency = RunLatency.recomputed(from: records)
            guard latency.all.count > 0 else { return nil }
            var link = LatencyRecorder()
            for step in records.flatMap(\.steps) { if let value = step.stagesMs?[.link] { link.record(value) } }
            let linkSummary = link.summary
            return TransportLatency(transport: transport, summary: latency.all, byKind: latency.byKind,
                                    link: linkSummary.count > 0 ? linkSummary : nil)
        }
    }
}
