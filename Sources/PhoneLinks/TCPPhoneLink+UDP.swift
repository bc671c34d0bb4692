import Foundation
package import GestureScript
import NetSocket
import RemoteTouchProtocol

extension TCPPhoneLink {
    /// The udp transport: binds the phone's movement port to this connection. A phone that is not paired is refused
    /// (its packets are then refused too, and counted); it binds again once it pairs.
    package func bindMovement(_ connection: TCPPhoneConnection) async {
        guard let movement else { return }
        movement.reset()
        if let refusal = await connection.bindUDP(port: movement.port, timeout: .milliseconds(Int64(2000 * settings.latencyScale))) {
            phase("UDP movement not bound (\(refusal.prefix { $0 != ":" }))")
        }
    }

    /// Sends `count` forged movement packets to the computer's UDP port: from the rig's third host (`attacker`, a
    /// fresh socket there), or from the phone app's own movement socket (`phone`: what a replay from the phone's
    /// address and port looks like — refused once its session has ended, injected while it is bound, which is
    /// the binding's documented limit). Returns what was sent, for the step's message.
    package func forge(_ count: Int, from source: ForgedSource, packets: ForgedPackets) async throws -> String {
        guard let udp = settings.udp else {
            throw LinkError(.wrongTransport, "forgedPackets attacks the udp transport's movement port: this scenario runs on tcp (mark it \"transports\": [\"udp\"])")
        }
        let socket: UDPSocket
        let address: String
        switch source {
        case .attacker:
            guard let attacker = settings.attacker else {
                throw LinkError(.hosts, "forgedPackets from the attacker needs the rig's third host (its attacker network namespace), and this rig has none: run in the vm rig (`hil doctor` shows its hosts)")
            }
            socket = try UDPSocket.bind(port: 0, netns: attacker.netns)
            address = attacker.address
        case .phone:
            guard let movement else { throw LinkError(.link, "the phone has no movement socket") }
            socket = movement.socket
            address = "the phone app's movement socket"
        case .phoneOtherPort:
            socket = try UDPSocket.bind(port: 0, netns: settings.phoneNetns)
            address = "the phone's address"
        }
        defer { if source != .phone { socket.close() } }
        var sent = 0
        for index in 0..<count {
            if socket.send(packets.packet(index).encoded(), to: udp.address, port: udp.udpPort) { sent += 1 }
            if index % 50 == 49 { try await Task.sleep(for: .milliseconds(5)) }
        }
        return "\(sent) of \(count) forged \(packets.rawValue) packet(s) sent from \(address) port \(socket.localPort ?? 0) to \(udp.address):\(udp.udpPort)"
    }
}
