import Foundation

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
    package var attacker: RigNetwork.Attacker?

    package init(phoneNetns: String, phoneBus: String, computerNetns: String, computerBus: String,
                computerAddress: String = RigNetwork.twoHosts.computer.address, attacker: RigNetwork.Attacker? = nil)
    {
        self.phoneNetns = phoneNetns
        self.phoneBus = phoneBus
        self.computerNetns = computerNetns
        self.computerBus = computerBus
        self.computerAddress = computerAddress
        self.attacker = attacker
    }

    /// The rig's hosts (`HIL_NET_*`).
    package init(_ network: RigNetwork) {
        self.init(phoneNetns: network.phone.netns, phoneBus: network.phone.bus, computerNetns: network.computer.netns,
                  computerBus: network.computer.bus, computerAddress: network.computer.address,
                  attacker: network.attacker)
    }
}
