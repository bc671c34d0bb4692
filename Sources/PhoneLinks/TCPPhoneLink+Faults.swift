import Foundation
package import GestureScript
import NetSocket
import RigControl
import Waiting
package import ScenarioDriver

extension TCPPhoneLink {
    /// The phone's side: its app's connection is reset (the computer gets an RST at once) and the phone host's
    /// interface goes down for the outage. The computer's side: the computer host's interface goes down, no RST;
    /// each side notices from its own heartbeat (the phone's unanswered pings, the computer's stall deadline).
    package func takeDown(_ side: LinkSide, for outage: Duration) async throws -> any LinkOutage {
        let connection = try connected()
        guard let netns = side == .phone ? settings.phoneNetns : settings.computerNetns else {
            throw LinkError(.hosts, "a \(side == .phone ? "phone" : "computer")-side link drop needs the rig's two hosts (network namespaces): this rig has no network namespaces to take down")
        }
        let interface = try NetworkNamespace.vethInterface(in: netns)
        if side == .phone { connection.reset(reason: "the phone's network went down") }
        try NetworkNamespace.setLink(interface, in: netns, up: false)
        let down = RestoringOutage(description: "\(side == .phone ? "the phone's" : "the computer's") interface \(interface) down",
                                   after: outage) { try NetworkNamespace.setLink(interface, in: netns, up: true) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(4000 * settings.latencyScale))
        try await waitUntilDown(connection, by: deadline, "the phone did not notice the link drop within \(deadline)")
        return down
    }

    /// Returns once the phone has seen `connection` go down; throws `failure` when it has not by `deadline`.
    package func waitUntilDown(_ connection: TCPPhoneConnection, by deadline: ContinuousClock.Instant,
                       _ failure: @autoclosure () -> String) async throws
    {
        do {
            // The reader thread marks the connection down, and signals it.
            try await connection.changes.until("the link drop", timeout: deadline - .now) { connection.down.map { _ in () } }
        } catch is WaitTimeout {
            throw LinkError(.timeout, failure())
        }
    }
}
