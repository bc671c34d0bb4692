import Rig
import RigControl
import Testing

@Suite("RigNetwork: the two hosts' and the attacker's HIL_NET_* variables, typed")
struct RigNetworkTests {
    /// The phone's and the computer's six (Rigs/net/two-hosts.sh env, its first six lines).
    static let sixVariables = [
        "HIL_NET_PHONE_NETNS": "hil-phone", "HIL_NET_PHONE_BUS": "unix:path=/run/hil-net/phone/bus",
        "HIL_NET_PHONE_ADDRESS": "10.77.0.2", "HIL_NET_COMPUTER_NETNS": "hil-computer",
        "HIL_NET_COMPUTER_BUS": "unix:path=/run/hil-net/computer/bus", "HIL_NET_COMPUTER_ADDRESS": "10.77.0.1",
    ]
    /// What the vm rig's guest passes (Rigs/net/two-hosts.sh env): the six and the attacker's two.
    static let vmVariables = sixVariables.merging(["HIL_NET_ATTACKER_NETNS": "hil-attacker", "HIL_NET_ATTACKER_ADDRESS": "10.77.0.3"]) { $1 }

    @Test("the vm rig's eight variables read as its phone, computer and attacker, and are written back the same")
    func roundTrip() throws {
        let network = try #require(try RigNetwork(from: Self.vmVariables.merging(["PATH": "/bin", "HIL_NET_OTHER": "x"]) { $1 }))
        #expect(network == RigNetwork.twoHosts)
        #expect(network.phone == RigNetwork.Host(netns: "hil-phone", bus: "unix:path=/run/hil-net/phone/bus", address: "10.77.0.2"))
        #expect(network.computer.netns == "hil-computer")
        #expect(network.computer.address == "10.77.0.1")
        #expect(network.attacker == RigNetwork.Attacker(netns: "hil-attacker", address: "10.77.0.3"))
        #expect(network.variables == Self.vmVariables)
        #expect(Set(RigNetwork.variableNames + RigNetwork.attackerVariableNames) == Set(Self.vmVariables.keys))
    }

    @Test("without the attacker's two: the phone and the computer, no attacker, and six variables written back")
    func withoutAttacker() throws {
        let network = try #require(try RigNetwork(from: Self.sixVariables))
        #expect(network.attacker == nil)
        #expect(network == RigNetwork(phone: RigNetwork.twoHosts.phone, computer: RigNetwork.twoHosts.computer))
        #expect(network.variables == Self.sixVariables)
        // Empty counts as unset, as for the six.
        let empty = try RigNetwork(from: Self.sixVariables.merging(["HIL_NET_ATTACKER_NETNS": "", "HIL_NET_ATTACKER_ADDRESS": ""]) { $1 })
        #expect(empty?.attacker == nil)
    }

    @Test("one of the attacker's two without the other: an error naming both", arguments: [
        ("HIL_NET_ATTACKER_NETNS", "HIL_NET_ATTACKER_ADDRESS"), ("HIL_NET_ATTACKER_ADDRESS", "HIL_NET_ATTACKER_NETNS"),
    ])
    func attackerHalf(missing: String, set: String) {
        var variables = Self.vmVariables
        variables[missing] = nil
        let error = #expect(throws: RigError.self) { _ = try RigNetwork(from: variables) }
        #expect(error?.what == "\(missing) not set, but \(set) set: a rig sets both HIL_NET_ATTACKER_* variables or neither",
                "\(String(describing: error))")
        #expect(error?.hint?.contains("hil vm exec") == true)
        #expect(throws: RigError.self) { _ = try RigEnvironment(from: variables.merging(["HIL_RIG": "vm"]) { $1 }) }
    }

    @Test("the attacker's variables without the six: an error, not a rig without hosts")
    func attackerAlone() {
        let error = #expect(throws: RigError.self) {
            _ = try RigNetwork(from: ["HIL_NET_ATTACKER_NETNS": "hil-attacker", "HIL_NET_ATTACKER_ADDRESS": "10.77.0.3"])
        }
        #expect(error?.what.hasPrefix("HIL_NET_ATTACKER_NETNS, HIL_NET_ATTACKER_ADDRESS set, but none of the six") == true,
                "\(String(describing: error))")
        let one = #expect(throws: RigError.self) { _ = try RigNetwork(from: ["HIL_NET_ATTACKER_ADDRESS": "10.77.0.3"]) }
        #expect(one?.what.hasPrefix("HIL_NET_ATTACKER_ADDRESS set, but none of the six") == true, "\(String(describing: one))")
    }

    @Test("a malformed attacker value, or one the phone or the computer has: an error naming its variable", arguments: [
        ("HIL_NET_ATTACKER_NETNS", "hil/attacker", "is not a network namespace name"), ("HIL_NET_ATTACKER_NETNS", "..", "is not a network namespace name"),
        ("HIL_NET_ATTACKER_ADDRESS", "10.77.0", "is not an IPv4 address"), ("HIL_NET_ATTACKER_ADDRESS", "10.77.0.3/24", "is not an IPv4 address"),
        ("HIL_NET_ATTACKER_NETNS", "hil-phone", "is the phone's namespace too"), ("HIL_NET_ATTACKER_NETNS", "hil-computer", "is the computer's namespace too"),
        ("HIL_NET_ATTACKER_ADDRESS", "10.77.0.2", "is the phone's address too"), ("HIL_NET_ATTACKER_ADDRESS", "10.77.0.1", "is the computer's address too"),
    ])
    func attackerMalformed(variable: String, value: String, complaint: String) {
        let error = #expect(throws: RigError.self) { _ = try RigNetwork(from: Self.vmVariables.merging([variable: value]) { $1 }) }
        #expect(error?.what.hasPrefix("\(variable)=\(value) \(complaint)") == true, "\(String(describing: error))")
        #expect(error?.hint?.contains("hil vm exec") == true)
    }

    @Test("none set, or all empty: no network")
    func none() throws {
        #expect(try RigNetwork(from: ["HIL_RIG": "vm"]) == nil)
        #expect(try RigNetwork(from: Self.vmVariables.mapValues { _ in "" }) == nil)
    }

    @Test("RigEnvironment reads them into network and writes them back; without them network is nil and none are written")
    func environment() throws {
        let variables = Self.vmVariables.merging(["HIL_RIG": "vm", "HIL_PERIPHERAL_ADAPTER": "hci0", "HIL_CENTRAL_ADAPTER": "hci1",
                                                  "HIL_SHARE": "/hil/share"]) { $1 }
        let environment = try RigEnvironment(from: variables)
        #expect(environment.network == RigNetwork.twoHosts)
        #expect(environment.variables == variables)
        #expect(environment == RigEnvironment(rig: "vm", share: "/hil/share", network: .twoHosts))

        let ble = try RigEnvironment(from: ["HIL_RIG": "vm"])
        #expect(ble.network == nil)
        #expect(!ble.variables.keys.contains { $0.hasPrefix("HIL_NET_") })
    }

    @Test("some but not all set: an error naming the missing ones", arguments: RigNetwork.variableNames)
    func partial(missing: String) {
        var variables = Self.vmVariables
        variables[missing] = nil
        let error = #expect(throws: RigError.self) { _ = try RigNetwork(from: variables) }
        #expect(error?.what.hasPrefix("\(missing) not set, but ") == true, "\(String(describing: error))")
        #expect(error?.what.contains("all six HIL_NET_* variables or none") == true)
        // The same through RigEnvironment, which every command reads.
        #expect(throws: RigError.self) { _ = try RigEnvironment(from: variables.merging(["HIL_RIG": "vm"]) { $1 }) }
    }

    @Test("only one set: the five others are named")
    func onlyOne() {
        let error = #expect(throws: RigError.self) { _ = try RigNetwork(from: ["HIL_NET_COMPUTER_ADDRESS": "10.77.0.1"]) }
        #expect(error?.what.hasPrefix("HIL_NET_PHONE_NETNS, HIL_NET_PHONE_BUS, HIL_NET_PHONE_ADDRESS, HIL_NET_COMPUTER_NETNS, HIL_NET_COMPUTER_BUS not set, but HIL_NET_COMPUTER_ADDRESS set") == true,
                "\(String(describing: error))")
    }

    @Test("a malformed value is an error that names its variable and value", arguments: [
        ("HIL_NET_PHONE_NETNS", "hil/phone"), ("HIL_NET_COMPUTER_NETNS", "hil computer"), ("HIL_NET_PHONE_NETNS", ".."),
        ("HIL_NET_PHONE_BUS", "/run/hil-net/phone/bus"), ("HIL_NET_COMPUTER_BUS", "unix:path=relative/bus"),
        ("HIL_NET_PHONE_BUS", "unix:"), ("HIL_NET_COMPUTER_BUS", "unix:path=/a;unix:path=/b"), ("HIL_NET_PHONE_BUS", ":path=/bus"),
        ("HIL_NET_PHONE_ADDRESS", "10.77.0"), ("HIL_NET_COMPUTER_ADDRESS", "10.77.0.256"), ("HIL_NET_PHONE_ADDRESS", "hil-phone.local"),
        ("HIL_NET_COMPUTER_ADDRESS", "fe80::1"), ("HIL_NET_PHONE_ADDRESS", "10.77.0.2/24"),
    ])
    func malformed(variable: String, value: String) {
        let variables = Self.vmVariables.merging([variable: value]) { $1 }
        let error = #expect(throws: RigError.self) { _ = try RigNetwork(from: variables) }
        #expect(error?.what.hasPrefix("\(variable)=\(value) is not ") == true, "\(String(describing: error))")
        #expect(error?.hint?.contains("hil vm exec") == true)
    }

    @Test("the two hosts may not share a namespace, bus or address: the computer's variable is named", arguments: [
        ("HIL_NET_COMPUTER_NETNS", "hil-phone", "namespace"), ("HIL_NET_COMPUTER_BUS", "unix:path=/run/hil-net/phone/bus", "bus"),
        ("HIL_NET_COMPUTER_ADDRESS", "10.77.0.2", "address"),
    ])
    func shared(variable: String, value: String, field: String) {
        let error = #expect(throws: RigError.self) { _ = try RigNetwork(from: Self.vmVariables.merging([variable: value]) { $1 }) }
        #expect(error?.what == "\(variable)=\(value) is the phone's \(field) too: the two hosts must not share one")
    }

    @Test("other D-Bus address forms are accepted")
    func busForms() throws {
        for bus in ["unix:abstract=hil-phone", "tcp:host=127.0.0.1,port=4000", "unix:path=/tmp/a,guid=0123"] {
            let network = try RigNetwork(from: Self.vmVariables.merging(["HIL_NET_PHONE_BUS": bus]) { $1 })
            #expect(network?.phone.bus == bus)
        }
    }
}
