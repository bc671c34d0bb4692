import Rig
import RigControl
import Testing

@Suite("RigEnvironment: the HIL_* variables, typed")
struct RigEnvironmentTests {
    @Test("outside a rig: no rig, the default adapters")
    func outside() throws {
        let environment = try RigEnvironment(from: ["PATH": "/usr/bin", "HOME": "/root"])
        #expect(!environment.isInsideRig)
        #expect(environment == RigEnvironment())
        #expect(environment.peripheralAdapter == "hci0")
        #expect(environment.centralAdapter == "hci1")
    }

    @Test("inside a rig every variable is read, and written back the same")
    func roundTrip() throws {
        let variables = [
            "HIL_RIG": "vm", "HIL_PERIPHERAL_ADAPTER": "hci2", "HIL_CENTRAL_ADAPTER": "hci3", "HIL_SHARE": "/hil/share",
            "HIL_SCRATCH": "/run/hil-scratch", "HIL_RIGS": "/work/Rigs", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/tmp/bus",
        ]
        let environment = try RigEnvironment(from: variables.merging(["PATH": "/bin", "HIL_OTHER": "x"]) { $1 })
        #expect(environment == RigEnvironment(rig: "vm", peripheralAdapter: "hci2", centralAdapter: "hci3", share: "/hil/share",
                                              scratch: "/run/hil-scratch", rigsFolder: "/work/Rigs", systemBusAddress: "unix:path=/tmp/bus"))
        #expect(environment.isInsideRig)
        #expect(environment.variables == variables)
    }

    @Test("unset optional fields are left out of the variables; empty ones count as unset")
    func unset() throws {
        let environment = try RigEnvironment(from: ["HIL_RIG": "virtual", "HIL_SHARE": ""])
        #expect(environment.variables == ["HIL_RIG": "virtual", "HIL_PERIPHERAL_ADAPTER": "hci0", "HIL_CENTRAL_ADAPTER": "hci1"])
    }

    @Test("a malformed value is an error that names its variable", arguments: [
        ("HIL_PERIPHERAL_ADAPTER", "bluetooth0"), ("HIL_CENTRAL_ADAPTER", "hcix"), ("HIL_SHARE", "relative/share"),
        ("HIL_SCRATCH", "run/hil-scratch"),
    ])
    func malformed(variable: String, value: String) {
        let error = #expect(throws: RigError.self) { _ = try RigEnvironment(from: ["HIL_RIG": "vm", variable: value]) }
        #expect(error?.what.hasPrefix("\(variable)=\(value) ") == true)
    }
}
