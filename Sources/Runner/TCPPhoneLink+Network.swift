import Foundation
import GestureScript
import InputCodes
import Rig
import ScenarioDriver
import Synchronization

extension TCPPhoneLink {
    /// netem on both hosts' interfaces (each host's outgoing packets): `tc qdisc replace … netem delay … loss …`,
    /// or the qdisc removed for nil. The conditions stay until the next call or the end of the scenario.
    func setNetwork(_ conditions: NetworkConditions?) async throws -> String {
        let hosts = try networkHosts("a network step")
        for (netns, interface) in hosts { try Self.netem(conditions.map(Self.netemArguments), on: interface, in: netns) }
        networkConditions.withLock { $0 = conditions }
        let where_ = hosts.map { "\($0.interface) in \($0.netns)" }.joined(separator: " and ")
        return conditions.map { "netem \(Self.netemArguments($0).joined(separator: " ")) on \(where_)" } ?? "netem removed from \(where_)"
    }

    /// Every packet between the hosts is dropped (netem loss 100 % on both interfaces) for `outage`, then the
    /// conditions before it come back. Returns once the phone has noticed: its TCP connection aborted (unacknowledged
    /// data for `TCPPhoneConnection.userTimeout`) or its pings went unanswered.
    func partition(for outage: Duration) async throws -> any LinkOutage {
        let connection = try connected()
        let hosts = try networkHosts("a partition step")
        let before = networkConditions.withLock { $0 }
        for (netns, interface) in hosts { try Self.netem(["loss", "100%"], on: interface, in: netns) }
        let restore = Task { () -> (MonotonicTime, String) in
            try? await Task.sleep(for: outage)
            do {
                for (netns, interface) in hosts { try Self.netem(before.map(Self.netemArguments), on: interface, in: netns) }
                return (.now(), "")
            } catch {
                return (.now(), "; rig: \(error)")
            }
        }
        let deadline = ContinuousClock.now + outage + .milliseconds(Int64(4000 * settings.latencyScale))
        while connection.down == nil {
            guard ContinuousClock.now < deadline else {
                throw RunnerError("the phone did not notice the partition within \(outage) + \(Int(4 * settings.latencyScale)) s (its connection is still up)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return RestoringOutage(description: "the network between the hosts partitioned (netem loss 100 %)", restore: restore)
    }

    /// The scenario ends: the network between the hosts is clean again for the next one.
    func resetNetwork() {
        guard networkConditions.withLock({ $0 }) != nil, let hosts = try? networkHosts("") else { return }
        for (netns, interface) in hosts { try? Self.netem(nil, on: interface, in: netns) }
        networkConditions.withLock { $0 = nil }
    }

    private func networkHosts(_ what: String) throws -> [(netns: String, interface: String)] {
        guard let phone = settings.phoneNetns, let computer = settings.computerNetns else {
            throw RunnerError("\(what) needs the rig's two hosts (HIL_NET_*): this rig has no network namespaces")
        }
        return try [(phone, Self.vethInterface(in: phone)), (computer, Self.vethInterface(in: computer))]
    }

    static func netemArguments(_ conditions: NetworkConditions) -> [String] {
        var arguments = ["delay", "\(conditions.delayMs)ms"]
        if conditions.jitterMs > 0 { arguments += ["\(conditions.jitterMs)ms", "distribution", "normal"] }
        if conditions.lossPercent > 0 { arguments += ["loss", "\(conditions.lossPercent)%"] }
        return arguments
    }

    /// `tc -n NETNS qdisc replace dev IFACE root netem ARGS`, or `qdisc del` for nil (nothing to delete is fine).
    static func netem(_ arguments: [String]?, on interface: String, in netns: String) throws {
        let command = ["-n", netns, "qdisc"] + (arguments.map { ["replace", "dev", interface, "root", "netem"] + $0 } ?? ["del", "dev", interface, "root"])
        let process = try ChildProcess("/usr/sbin/tc", command, output: .joined, ownProcessGroup: false)
        let output = String(decoding: process.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.wait() != 0 else { return }
        if arguments == nil && (output.contains("No such file") || output.contains("Cannot delete qdisc with handle of zero")) { return }
        let hint = output.contains("Specified qdisc kind is unknown") || output.contains("qdisc kind is unknown")
            ? " (this kernel has no sch_netem: network faults need a kernel with it, such as the vm rig's guest, which loads it)" : ""
        throw RunnerError("tc \(command.joined(separator: " ")) failed: \(output)\(hint)")
    }
}
