/// The samples a regression rule compares: step latencies of one gesture kind on one transport. Mixing transports
/// would compare mixtures (a tap over udp is ten times faster than over ble), so a group never does.
package struct LatencyGroup: Sendable, Hashable, Comparable {
    /// `ble`, `hid`, `tcp`, `udp`; nil in files from before transports.
    package var transport: String?
    package var kind: String

    package init(transport: String?, kind: String) {
        self.transport = transport
        self.kind = kind
    }

    /// `ble tap`, or `tap` without a transport.
    package var label: String {
        transport.map { "\($0) \(kind)" } ?? kind
    }

    package static func < (lhs: LatencyGroup, rhs: LatencyGroup) -> Bool {
        (lhs.transport ?? "", lhs.kind) < (rhs.transport ?? "", rhs.kind)
    }
}

extension RunResults {
    /// Every step latency by transport and kind, groups sorted (transport, then kind), samples in run order.
    package var samplesByGroup: [(group: LatencyGroup, samples: [Double])] {
        var samples: [LatencyGroup: [Double]] = [:]
        for scenario in scenarios {
            for step in scenario.steps {
                guard let latency = step.latencyMs else { continue }
                samples[LatencyGroup(transport: scenario.transport, kind: step.kind), default: []].append(latency)
            }
        }
        return samples.keys.sorted().map { ($0, samples[$0]!) }
    }
}
