import Rig
import Testing

@Suite("RigNetwork: the two hosts' HIL_NET_* variables, typed")
struct RigNetworkTests {
    /// What the vm rig's guest passes (Rigs/net/two-hosts.sh env).
    static let vmVariables = [
        "HIL_NET_PHONE_NETNS": "hil-phone", "HIL_NET_PHONE_BUS": "unix:path=/run/hil-net/phone/bus",
        "HIL_NET_PHONE_ADDRESS": "10.77.0.2", "HIL_NET_COMPUTER_NETNS": "hil-computer",
        "HIL_NET_COMPUTER_BUS": "unix:path=/run/hil-net/computer/bus", "HIL_NET_COMPUTER_ADDRESS": "10.77.0.1",
    ]

    @Test("the vm rig's six variables read as its two hosts, and are written back the same")
    func roundTrip() throws {
        let network = try #require(try RigNetwork(from: Self.vmVariables.merging(["PATH": "/bin", "HIL_NET_OTHER": "x"]) { $1 }))
        #expect(network == RigNetwork.twoHosts)
        #expect(network.phone == RigNetwork.Host(netns: "hil-phone", bus: "unix:path=/run/hil-net/phone/bus", address: "10.77.0.2"))
        #expect(network.computer.netns == "hil-computer")
        #expect(network.computer.address == "10.77.0.1")
        #expect(network.variables == Self.vmVariables)
        #expect(Set(RigNetwork.variableNames) == Set(Self.vmVariables.keys))
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
        #expect(error?.message.hasPrefix("\(missing) not set, but ") == true, "\(String(describing: error))")
        #expect(error?.message.contains("all six HIL_NET_* variables or none") == true)
        // The same through RigEnvironment, which every command reads.
        #expect(throws: RigError.self) { _ = try RigEnvironment(from: variables.merging(["HIL_RIG": "vm"]) { $1 }) }
    }

    @Test("only one set: the five others are named")
    func onlyOne() {
        let error = #expect(throws: RigError.self) { _ = try RigNetwork(from: ["HIL_NET_COMPUTER_ADDRESS": "10.77.0.1"]) }
        #expect(error?.message.hasPrefix("HIL_NET_PHONE_NETNS, HIL_NET_PHONE_BUS, HIL_NET_PHONE_ADDRESS, HIL_NET_COMPUTER_NETNS, HIL_NET_COMPUTER_BUS not set, but HIL_NET_COMPUTER_ADDRESS set") == true,
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
        #expect(error?.message.hasPrefix("\(variable)=\(value) is not ") == true, "\(String(describing: error))")
        #expect(error?.hint?.contains("hil vm exec") == true)
    }

    @Test("the two hosts may not share a namespace, bus or address: the computer's variable is named", arguments: [
        ("HIL_NET_COMPUTER_NETNS", "hil-phone", "namespace"), ("HIL_NET_COMPUTER_BUS", "unix:path=/run/hil-net/phone/bus", "bus"),
        ("HIL_NET_COMPUTER_ADDRESS", "10.77.0.2", "address"),
    ])
    func shared(variable: String, value: String, field: String) {
        let error = #expect(throws: RigError.self) { _ = try RigNetwork(from: Self.vmVariables.merging([variable: value]) { $1 }) }
        #expect(error?.message == "\(variable)=\(value) is the phone's \(field) too: the two hosts must not share one")
    }

    @Test("other D-Bus address forms are accepted")
    func busForms() throws {
        for bus in ["unix:abstract=hil-phone", "tcp:host=127.0.0.1,port=4000", "unix:path=/tmp/a,guid=0123"] {
            let network = try RigNetwork(from: Self.vmVariables.merging(["HIL_NET_PHONE_BUS": bus]) { $1 })
            #expect(network?.phone.bus == bus)
        }
    }
}
