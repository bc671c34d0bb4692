import Foundation
import GestureScript
import InputCodes
import Rig
import ScenarioDriver

extension TCPPhoneLink {
    /// A network interface down for the outage, up again by a task of its own.
    struct InterfaceOutage: LinkOutage {
        var description: String
        let restore: Task<(MonotonicTime, String), Never>

        func restored() async -> (at: MonotonicTime, note: String) { await restore.value }
    }

    /// The phone's side: its app's connection is reset (the computer gets an RST at once) and the phone host's
    /// interface goes down for the outage. The computer's side: the computer host's interface goes down, no RST;
    /// each side notices from its own heartbeat (the phone's unanswered pings, the computer's stall deadline).
    func takeDown(_ side: LinkSide, for outage: Duration) async throws -> any LinkOutage {
        let connection = try connected()
        let (netns, interface) = side == .phone
            ? (settings.phoneNetns, settings.phoneInterface) : (settings.computerNetns, settings.computerInterface)
        guard let netns, let interface else {
            throw RunnerError("a \(side == .phone ? "phone" : "computer")-side link drop needs the rig's two hosts (HIL_NET_*): this rig has no network namespaces to take down")
        }
        if side == .phone { connection.reset(reason: "the phone's network went down") }
        try Self.setLink(interface, in: netns, up: false)
        let restore = Task { () -> (MonotonicTime, String) in
            try? await Task.sleep(for: outage)
            do {
                try Self.setLink(interface, in: netns, up: true)
                return (.now(), "")
            } catch {
                return (.now(), "; rig: \(error)")
            }
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(4000 * settings.latencyScale))
        while connection.down == nil {
            guard ContinuousClock.now < deadline else { throw RunnerError("the phone did not notice the link drop within \(deadline)") }
            try await Task.sleep(for: .milliseconds(10))
        }
        return InterfaceOutage(description: "\(side == .phone ? "the phone's" : "the computer's") interface \(interface) down", restore: restore)
    }

    /// `ip -n NETNS link set IFACE up|down`.
    static func setLink(_ interface: String, in netns: String, up: Bool) throws {
        let arguments = ["-n", netns, "link", "set", interface, up ? "up" : "down"]
        let process = try ChildProcess("/usr/sbin/ip", arguments, output: .joined, ownProcessGroup: false)
        let output = String(decoding: process.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        guard process.wait() == 0 else {
            throw RunnerError("ip \(arguments.joined(separator: " ")) failed: \(output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }
}
