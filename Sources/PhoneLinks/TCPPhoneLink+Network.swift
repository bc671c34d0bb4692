import Foundation
package import GestureScript
import NetSocket
import RigControl
package import ScenarioDriver
import Synchronization

extension TCPPhoneLink {
    /// netem on both hosts' interfaces (each host's outgoing packets): `tc qdisc replace … netem delay … loss …`,
    /// or the qdisc removed for nil. The conditions stay until the next call or the end of the scenario.
    package func setNetwork(_ conditions: NetworkConditions?) async throws -> String {
        let hosts = try networkHosts("a network step")
        for (netns, interface) in hosts { try Netem.apply(conditions.map(\.netemArguments), on: interface, in: netns) }
        networkConditions.withLock { $0 = conditions }
        let where_ = hosts.map { "\($0.interface) in \($0.netns)" }.joined(separator: " and ")
        return conditions.map { "netem \($0.netemArguments.joined(separator: " ")) on \(where_)" } ?? "netem removed from \(where_)"
    }

    /// Every packet between the hosts is dropped (netem loss 100 % on both interfaces) for `outage`, then the
    /// conditions before it come back. Returns once the phone has noticed: its TCP connection aborted (unacknowledged
    /// data for `TCPPhoneConnection.userTimeout`) or its pings went unanswered.
    package func partition(for outage: Duration) async throws -> any LinkOutage {
        let connection = try connected()
        let hosts = try networkHosts("a partition step")
        let before = networkConditions.withLock { $0 }
        for (netns, interface) in hosts { try Netem.apply(["loss", "100%"], on: interface, in: netns) }
        let partition = RestoringOutage(description: "the network between the hosts partitioned (netem loss 100 %)", after: outage) {
            for (netns, interface) in hosts { try Netem.apply(before.map(\.netemArguments), on: interface, in: netns) }
        }
        let deadline = ContinuousClock.now + outage + .milliseconds(Int64(4000 * settings.latencyScale))
        try await waitUntilDown(connection, by: deadline,
                                "the phone did not notice the partition within \(outage) + \(Int(4 * settings.latencyScale)) s (its connection is still up)")
        return partition
    }

    /// The scenario ends: the network between the hosts is clean again for the next one.
    package func resetNetwork() {
        guard networkConditions.withLock({ $0 }) != nil, let hosts = try? networkHosts("") else { return }
        for (netns, interface) in hosts { try? Netem.apply(nil, on: interface, in: netns) }
        networkConditions.withLock { $0 = nil }
    }

    private func networkHosts(_ what: String) throws -> [(netns: String, interface: String)] {
        guard let phone = settings.phoneNetns, let computer = settings.computerNetns else {
            throw LinkError(
                .hosts, "\(what) needs the rig's two hosts: this rig has no network namespaces")
        }
        return try [(phone, NetworkNamespace.vethInterface(in: phone)), (computer, NetworkNamespace.vethInterface(in: computer))]
    }
}
