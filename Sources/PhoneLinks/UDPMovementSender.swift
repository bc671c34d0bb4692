package import NetSocket
package import RemoteTouchProtocol
import Synchronization

/// The virtual phone's udp movement (seeds/connectivity-layer.md's `WifiNetworkService`): a UDP socket in the
/// phone's namespace, the pointer state, and the port the computer must bind to the control connection.
/// Movement — pointer motion and vertical scroll — leaves as 5-byte 0xAA packets, split when larger than int8;
/// every other command goes over the control connection, whose buttons the packets' buttons byte mirrors.
package final class UDPMovementSender: Sendable {
    package let target: TCPPhoneLink.Settings.UDPTarget
    package let socket: UDPSocket
    private let translator = Mutex(PointerTranslator())

    package init(target: TCPPhoneLink.Settings.UDPTarget, netns: String?) throws {
        self.target = target
        socket = try UDPSocket.bind(port: 0, netns: netns)
    }

    /// The socket's port: what the phone binds.
    package var port: UInt16 { socket.localPort ?? 0 }

    /// Sends a movement command as packets and returns them; nil when the command is not movement (it goes over
    /// control).
    package func send(_ command: Command) -> [UDPPacket]? {
        let packets: [UDPPacket]? = translator.withLock { translator in
            guard PointerTranslator.isMovement(command) else {
                translator.carried(command)
                return nil
            }
            return (translator.translate(command) ?? []).flatMap { input in
                UDPPacket.movement(dx: input.dx, dy: input.dy, wheel: input.wheel, buttons: input.buttons)
            }
        }
        guard let packets else { return nil }
        // A packet the kernel refuses at once (no route while an interface is down) is lost, as on a real network.
        for packet in packets { socket.send(packet.encoded(), to: target.address, port: target.udpPort) }
        return packets
    }

    /// Sends one packet as it is (a recorded one).
    package func send(raw packet: UDPPacket) {
        socket.send(packet.encoded(), to: target.address, port: target.udpPort)
    }

    /// A command that goes over control: the pointer state follows it (a drag's button), as for the model's commands.
    package func carried(_ command: Command) {
        translator.withLock { $0.carried(command) }
    }

    /// A new connection: the computer let go of every button when the old one went.
    package func reset() {
        translator.withLock { $0 = PointerTranslator() }
    }
}
