import Rig
import RigControl
import StrictJSON
import Testing

@Suite("Lanes: pairs of adapters, one scenario each at a time")
struct RigLaneTests {
    @Test("the vm rig ships with one lane; machine.lanes 2 makes hci0+hci1 and hci2+hci3")
    func shipped() throws {
        var vm = try RigCatalog(directory: rigsFolder).rig(named: "vm")
        #expect(vm.machine?.lanes == 1)
        #expect(vm.lanes == [RigEnvironment.Lane(peripheral: "hci0", central: "hci1")])
        vm.machine?.lanes = 2
        #expect(vm.lanes == [RigEnvironment.Lane(peripheral: "hci0", central: "hci1"), RigEnvironment.Lane(peripheral: "hci2", central: "hci3")])
        #expect(try RigCatalog(directory: rigsFolder).rig(named: "hardware").lanes.count == 1)
    }

    @Test("machine.lanes is 1 to 4; anything else is named with its JSON path", arguments: ["0", "5", "1.5", "\"2\""])
    func outOfRange(lanes: String) throws {
        let value = try JSONParser().parse("""
            {"name": "x", "description": "x", "kind": "vm", "peripheralAdapter": "hci0", "centralAdapter": "hci1",
             "controllers": "btvirt", "bluetoothd": "private", "machine": {"lanes": \(lanes)}}
            """)
        let error = #expect(throws: RigFileProblems.self) { _ = try RigDefinition.parse(value) }
        #expect(error?.problems.map(\.path.description).contains("machine.lanes") == true, "\(String(describing: error?.problems))")
    }

    @Test("HIL_LANES is read, and written back only when there is more than one lane")
    func variable() throws {
        let variables = ["HIL_RIG": "vm", "HIL_PERIPHERAL_ADAPTER": "hci0", "HIL_CENTRAL_ADAPTER": "hci1", "HIL_LANES": "hci0:hci1,hci2:hci3"]
        let environment = try RigEnvironment(from: variables)
        #expect(environment.lanes.map(\.description) == ["hci0:hci1", "hci2:hci3"])
        #expect(environment.variables == variables)
        let single = try RigEnvironment(from: ["HIL_RIG": "vm", "HIL_PERIPHERAL_ADAPTER": "hci4", "HIL_CENTRAL_ADAPTER": "hci5"])
        #expect(single.lanes == [RigEnvironment.Lane(peripheral: "hci4", central: "hci5")])
        #expect(single.variables["HIL_LANES"] == nil)
    }

    @Test("a malformed HIL_LANES is refused with the variable and what is wrong", arguments: [
        ("hci0:hci1,hci2", "\"hci2\" is not a pair"), ("hci0:hci1,hci2:usb3", "HIL_LANES=usb3 is not an adapter name"),
        ("hci2:hci3,hci0:hci1", "must start with hci0:hci1"), ("hci0:hci1,hci1:hci2", "name each adapter once"),
    ])
    func malformed(value: String, problem: String) {
        let error = #expect(throws: RigError.self) {
            _ = try RigEnvironment(from: ["HIL_RIG": "vm", "HIL_LANES": value])
        }
        #expect(error?.what.contains(problem) == true, "\(String(describing: error?.what))")
    }
}
