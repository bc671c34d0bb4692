import Foundation
package import RigControl

/// The network transports' hosts in a rig: the phone and the computer (the "two hosts"), each a network
/// namespace with an address on one LAN and its own system-style D-Bus with an avahi-daemon on it, and optionally
/// an attacker, a third namespace on the same LAN with neither (another device on the same Wi-Fi, for scenarios
/// that send forged packets). `Rigs/net/two-hosts.sh` makes all three, each host's veth a port of one bridge; the
/// vm rig brings them up in its guest.
///
/// A rig passes the phone and the computer as six variables, all or none, and the attacker as two more, both or
/// neither (and only beside the six):
///
/// | variable | field | vm rig |
/// |---|---|---|
/// | `HIL_NET_PHONE_NETNS` | `phone.netns` | `hil-phone` |
/// | `HIL_NET_PHONE_BUS` | `phone.bus` | `unix:path=/run/hil-net/phone/bus` |
/// | `HIL_NET_PHONE_ADDRESS` | `phone.address` | `10.77.0.2` |
/// | `HIL_NET_COMPUTER_NETNS` | `computer.netns` | `hil-computer` |
/// | `HIL_NET_COMPUTER_BUS` | `computer.bus` | `unix:path=/run/hil-net/computer/bus` |
/// | `HIL_NET_COMPUTER_ADDRESS` | `computer.address` | `10.77.0.1` |
/// | `HIL_NET_ATTACKER_NETNS` | `attacker.netns` (optional) | `hil-attacker` |
/// | `HIL_NET_ATTACKER_ADDRESS` | `attacker.address` (optional) | `10.77.0.3` |
///
/// Run a host's side with `ip netns exec NETNS` and `DBUS_SYSTEM_BUS_ADDRESS=BUS` (avahi's clients reach it as
/// the system bus); the attacker's with `ip netns exec NETNS` alone. When the variables are set, the
/// avahi-daemons may still be probing their host names: wait for `org.freedesktop.Avahi.Server.GetState` to
/// return 2 (running) before publishing or browsing.
package struct RigNetwork: Sendable, Equatable {
    /// One of the two hosts.
    package struct Host: Sendable, Equatable, CustomStringConvertible {
        /// The network namespace (`ip netns exec NETNS …`).
        package var netns: String
        /// The D-Bus address of the host's own system bus, where its avahi-daemon is (`unix:path=…`).
        package var bus: String
        /// The host's IPv4 address on the veth pair.
        package var address: String

        package init(netns: String, bus: String, address: String) {
            self.netns = netns
            self.bus = bus
            self.address = address
        }

        package var description: String { "netns \(netns), \(address), bus \(bus)" }
    }

    /// The third host: another device on the phone's and the computer's LAN (RigControl's).
    package typealias Attacker = NetworkHosts.Attacker

    /// Where the phone's side runs (the transports' client: it browses and connects).
    package var phone: Host
    /// Where the computer's side runs (`hil peripheral`'s network endpoints: they publish and listen).
    package var computer: Host
    /// Where forged packets come from, on the same LAN; nil when the rig has no third host.
    package var attacker: Attacker?

    package init(phone: Host, computer: Host, attacker: Attacker? = nil) {
        self.phone = phone
        self.computer = computer
        self.attacker = attacker
    }

    /// The hosts `Rigs/net/two-hosts.sh` makes: the phone, the computer and the attacker.
    package static let twoHosts = RigNetwork(
        phone: Host(netns: "hil-phone", bus: "unix:path=/run/hil-net/phone/bus", address: "10.77.0.2"),
        computer: Host(netns: "hil-computer", bus: "unix:path=/run/hil-net/computer/bus", address: "10.77.0.1"),
        attacker: Attacker(netns: "hil-attacker", address: "10.77.0.3"))

    package static let phoneNetnsVariable = "HIL_NET_PHONE_NETNS"
    package static let phoneBusVariable = "HIL_NET_PHONE_BUS"
    package static let phoneAddressVariable = "HIL_NET_PHONE_ADDRESS"
    package static let computerNetnsVariable = "HIL_NET_COMPUTER_NETNS"
    package static let computerBusVariable = "HIL_NET_COMPUTER_BUS"
    package static let computerAddressVariable = "HIL_NET_COMPUTER_ADDRESS"
    package static let attackerNetnsVariable = "HIL_NET_ATTACKER_NETNS"
    package static let attackerAddressVariable = "HIL_NET_ATTACKER_ADDRESS"
    /// The six the phone and the computer need, phone first.
    package static let variableNames = [
        phoneNetnsVariable, phoneBusVariable, phoneAddressVariable,
        computerNetnsVariable, computerBusVariable, computerAddressVariable,
    ]
    /// The attacker's two, both or neither.
    package static let attackerVariableNames = [attackerNetnsVariable, attackerAddressVariable]

    private static let hint = "unset every HIL_NET_* variable, or run the command in the vm rig (`hil vm exec`), which sets them all; Rigs/net/two-hosts.sh env prints them"

    /// Reads the six variables and the attacker's two (empty counts as unset): nil when none is set.
    /// - Throws: `RigError` naming the variable: some of the six set but not all, one of the attacker's two without
    ///   the other or without the six, a namespace that is not a plain name, a bus that is not a D-Bus address, an
    ///   address that is not IPv4, or two hosts sharing one.
    package init?(from variables: [String: String]) throws(RigError) {
        let values = Self.variableNames.map { name in variables[name].flatMap { $0.isEmpty ? nil : $0 } }
        if values.allSatisfy({ $0 == nil }) {
            let attacker = Self.attackerVariableNames.filter { variables[$0].map { !$0.isEmpty } ?? false }
            guard attacker.isEmpty else {
                throw RigError(.rigFile, "\(attacker.joined(separator: ", ")) set, but none of the six HIL_NET_PHONE_* and HIL_NET_COMPUTER_* variables: the attacker is a third host beside the phone and the computer, never alone",
                               hint: Self.hint)
            }
            return nil
        }
        let missing = zip(Self.variableNames, values).filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty else {
            let set = zip(Self.variableNames, values).filter { $0.1 != nil }.map(\.0)
            throw RigError(.rigFile, "\(missing.joined(separator: ", ")) not set, but \(set.joined(separator: ", ")) set: a rig sets all six HIL_NET_* variables or none",
                           hint: Self.hint)
        }
        let phone = try Self.host(netns: values[0]!, bus: values[1]!, address: values[2]!, variables: Array(Self.variableNames[0..<3]))
        let computer = try Self.host(netns: values[3]!, bus: values[4]!, address: values[5]!, variables: Array(Self.variableNames[3..<6]))
        for (field, mine, theirs, name) in [("namespace", phone.netns, computer.netns, Self.computerNetnsVariable),
                                            ("bus", phone.bus, computer.bus, Self.computerBusVariable),
                                            ("address", phone.address, computer.address, Self.computerAddressVariable)]
        where mine == theirs {
            throw RigError(.rigFile, "\(name)=\(theirs) is the phone's \(field) too: the two hosts must not share one", hint: Self.hint)
        }
        self.init(phone: phone, computer: computer, attacker: try Self.attacker(from: variables, phone: phone, computer: computer))
    }

    /// The attacker's two variables: nil when neither is set.
    private static func attacker(from variables: [String: String], phone: Host, computer: Host) throws(RigError) -> Attacker? {
        let netns = variables[attackerNetnsVariable].flatMap { $0.isEmpty ? nil : $0 }
        let address = variables[attackerAddressVariable].flatMap { $0.isEmpty ? nil : $0 }
        switch (netns, address) {
        case (nil, nil):
            return nil
        case (let netns?, let address?):
            guard isNamespaceName(netns) else {
                throw RigError(.rigFile, "\(attackerNetnsVariable)=\(netns) is not a network namespace name such as hil-attacker (letters, digits, '.', '_', '-')",
                               hint: hint)
            }
            guard isIPv4(address) else {
                throw RigError(.rigFile, "\(attackerAddressVariable)=\(address) is not an IPv4 address such as 10.77.0.3", hint: hint)
            }
            for (name, field, mine, host, theirs) in [
                (attackerNetnsVariable, "namespace", netns, "phone", phone.netns), (attackerNetnsVariable, "namespace", netns, "computer", computer.netns),
                (attackerAddressVariable, "address", address, "phone", phone.address),
                (attackerAddressVariable, "address", address, "computer", computer.address),
            ] where mine == theirs {
                throw RigError(.rigFile, "\(name)=\(mine) is the \(host)'s \(field) too: the attacker must be a host of its own", hint: hint)
            }
            return Attacker(netns: netns, address: address)
        case (nil, _):
            throw RigError(.rigFile, "\(attackerNetnsVariable) not set, but \(attackerAddressVariable) set: a rig sets both HIL_NET_ATTACKER_* variables or neither",
                           hint: hint)
        case (_, nil):
            throw RigError(.rigFile, "\(attackerAddressVariable) not set, but \(attackerNetnsVariable) set: a rig sets both HIL_NET_ATTACKER_* variables or neither",
                           hint: hint)
        }
    }

    private static func host(netns: String, bus: String, address: String, variables: [String]) throws(RigError) -> Host {
        guard isNamespaceName(netns) else {
            throw RigError(.rigFile, "\(variables[0])=\(netns) is not a network namespace name such as hil-phone (letters, digits, '.', '_', '-')",
                           hint: hint)
        }
        guard isBusAddress(bus) else {
            throw RigError(.rigFile, "\(variables[1])=\(bus) is not a D-Bus address such as unix:path=/run/hil-net/phone/bus", hint: hint)
        }
        guard isIPv4(address) else {
            throw RigError(.rigFile, "\(variables[2])=\(address) is not an IPv4 address such as 10.77.0.2", hint: hint)
        }
        return Host(netns: netns, bus: bus, address: address)
    }

    /// A name `ip netns` accepts: a file name under /run/netns.
    static func isNamespaceName(_ text: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        return !text.isEmpty && text.count <= 255 && !text.hasPrefix(".") && text.allSatisfy(allowed.contains)
    }

    /// `transport:key=value[,key=value…]`, as D-Bus addresses are; a `unix:path=` must be absolute.
    static func isBusAddress(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, !text.contains(";") else { return false }
        let pairs = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
        guard !pairs.isEmpty else { return false }
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
            if text.hasPrefix("unix:"), parts[0] == "path", !parts[1].hasPrefix("/") { return false }
        }
        return true
    }

    /// A dotted-quad IPv4 address (`inet_pton`).
    static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    /// The six variables, and the attacker's two when there is one, to pass to a command in the rig.
    package var variables: [String: String] {
        var result = [
            Self.phoneNetnsVariable: phone.netns, Self.phoneBusVariable: phone.bus, Self.phoneAddressVariable: phone.address,
            Self.computerNetnsVariable: computer.netns, Self.computerBusVariable: computer.bus,
            Self.computerAddressVariable: computer.address,
        ]
        if let attacker {
            result[Self.attackerNetnsVariable] = attacker.netns
            result[Self.attackerAddressVariable] = attacker.address
        }
        return result
    }
}

extension NetworkHosts {
    /// The rig's hosts (`HIL_NET_*`).
    package init(_ network: RigNetwork) {
        self.init(phoneNetns: network.phone.netns, phoneBus: network.phone.bus, computerNetns: network.computer.netns,
                  computerBus: network.computer.bus, computerAddress: network.computer.address,
                  attacker: network.attacker)
    }
}
