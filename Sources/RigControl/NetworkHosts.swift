import Foundation
import NetSocket

/// The phone and computer hosts of a rig's network (network namespaces joined by veth, each with its own
/// avahi-daemon on its own bus).
package struct NetworkHosts: Sendable, Equatable {
    package var phoneNetns: String
    package var phoneBus: String
    package var computerNetns: String
    package var computerBus: String
    /// The computer host's address (the udp transport's phone is given it).
    package var computerAddress: String
    /// The rig's third host, for forged packets; nil when it has none.
    package var attacker: Attacker?

    /// The third host: another device on the phone's and the computer's LAN, with no bus or avahi-daemon.
    package struct Attacker: Sendable, Equatable, CustomStringConvertible {
        /// The network namespace (`ip netns exec NETNS …`).
        package var netns: String
        /// The attacker's IPv4 address on the LAN, the source of what it sends.
        package var address: String

        package init(netns: String, address: String) {
            self.netns = netns
            self.address = address
        }

        package var description: String { "netns \(netns), \(address)" }
    }

    /// The computer host's address on the rig's two-host network (Rigs/net/two-hosts.sh).
    package static let defaultComputerAddress = "10.77.0.1"

    package init(phoneNetns: String, phoneBus: String, computerNetns: String, computerBus: String,
                computerAddress: String = NetworkHosts.defaultComputerAddress, attacker: Attacker? = nil)
    {
        self.phoneNetns = phoneNetns
        self.phoneBus = phoneBus
        self.computerNetns = computerNetns
        self.computerBus = computerBus
        self.computerAddress = computerAddress
        self.attacker = attacker
    }
}

extension NetworkHosts {
    /// The phone host's end of its veth pair, where netem delays what it sends.
    /// - Throws: `RigError` when `ip` finds none in the phone's namespace.
    package func phoneInterface() throws -> String {
        try NetworkNamespace.vethInterface(in: phoneNetns)
    }
}
