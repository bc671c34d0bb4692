import Runner
import Scenario
import StrictJSON
import Testing
import Records

@Suite("hil run's plan: each scenario on the transports asked for; not applicable where it does not apply")
struct RunPlanTests {
    static func scenario(_ name: String, _ run: String) throws -> Scenario {
        try Scenario.parse(try JSONParser().parse(#"{"name": "\#(name)", "run": \#(run), "steps": [{"tap": {}}]}"#), file: "\(name).json")
    }

    @Test("by default each scenario runs on its own transport, else ble")
    func defaults() throws {
        let plan = RunPlan([try Self.scenario("a", "{}"), try Self.scenario("b", #"{"transport": "tcp"}"#)], repeats: 1, choice: .scenarios)
        #expect(plan.items.map(\.transport) == [.ble, .tcp])
        #expect(plan.items.map(\.scenario.name) == ["a", "b"])
        #expect(plan.notApplicable.isEmpty)
        #expect(plan.perRepeat == 2)
    }

    @Test("--transport tcp: a BLE-only scenario is not run and reported not applicable, with the reason")
    func notApplicable() throws {
        let scenarios = [try Self.scenario("gesture", "{}"), try Self.scenario("gatt", #"{"transports": ["ble"]}"#)]
        let plan = RunPlan(scenarios, repeats: 2, choice: .only(.tcp))
        #expect(plan.items.map(\.number) == [1, 3])
        #expect(plan.notApplicable.map(\.number) == [2, 4])
        let result = try #require(plan.notApplicable.first?.result)
        #expect(result.outcome == .notApplicable)
        #expect(result.transport == "tcp")
        #expect(result.message == "not applicable on tcp: the scenario applies to ble only (run.transports)")
        #expect(plan.notApplicable.map(\.result.repetition) == [1, 2])
    }

    @Test("a transport the rig cannot carry (tcp and udp on a box without network hosts): not applicable, with the rig's reason")
    func unavailableOnTheRig() throws {
        let scenarios = [try Self.scenario("tap", "{}"), try Self.scenario("backoff", #"{"transport": "tcp", "transports": ["tcp"]}"#)]
        let plan = RunPlan(scenarios, repeats: 1, choice: .scenarios, unavailable: [.tcp: "no network hosts"])
        #expect(plan.items.map(\.scenario.name) == ["tap"])
        #expect(plan.notApplicable.map(\.result.message) == ["not applicable on tcp: no network hosts"])
        #expect(plan.notApplicable.first?.result.outcome == .notApplicable)
        let all = RunPlan(scenarios, repeats: 1, choice: .all, unavailable: [.tcp: "no network hosts", .udp: "no network hosts"])
        #expect(all.items.map(\.transport) == [.ble, .hid])
        #expect(all.notApplicable.map(\.result.message) == [
            "not applicable on tcp: no network hosts", "not applicable on udp: no network hosts",
            "not applicable on ble: the scenario applies to tcp only (run.transports)",
            "not applicable on hid: the scenario applies to tcp only (run.transports)", "not applicable on tcp: no network hosts",
            "not applicable on udp: the scenario applies to tcp only (run.transports)",
        ])
    }

    @Test("--transport all: every scenario on every transport, each named with its transport")
    func all() throws {
        let plan = RunPlan([try Self.scenario("tap", "{}")], repeats: 1, choice: .all)
        #expect(plan.items.map(\.scenario.name) == ["tap [ble]", "tap [hid]", "tap [tcp]", "tap [udp]"])
        #expect(plan.items.map(\.transport) == [.ble, .hid, .tcp, .udp])
        #expect(plan.items.map(\.number) == [1, 2, 3, 4])
    }
}

/// The run's phone in the plan (issue 52): each ble and hid scenario runs on it with its own profile, or is not
/// applicable with why; tcp and udp have no BLE phone.
@Suite("The plan on the run's phone")
struct RunPlanPhoneTests {
    @Test("a scenario that needs the Bumble phone is not applicable on BlueZ, and runs with its profile on Bumble")
    func phones() throws {
        let needs = try RunPlanTests.scenario("needs bumble", #"{"phone": {"stack": "bumble", "mtu": 23}}"#)
        let any = try RunPlanTests.scenario("any", #"{}"#)
        let onBluez = RunPlan([needs, any], repeats: 1, choice: .several([.ble, .tcp]))
        #expect(onBluez.notApplicable.map(\.result.message) == ["not applicable on ble: the scenario runs on the bumble phone (run.phone.stack): hil run --phone bumble"])
        #expect(onBluez.items.map { "\($0.scenario.name) \($0.scenario.run.phone)" }
            == ["needs bumble [tcp] bumble mtu=23", "any [ble] bluez", "any [tcp] the run's phone"])
        let onBumble = RunPlan([needs, any], repeats: 1, choice: .only(.hid), phone: PhoneChoice(stack: .bumble, profile: "ios-like"))
        #expect(onBumble.notApplicable.isEmpty)
        #expect(onBumble.items.map(\.scenario.run.phone.description) == ["bumble:ios-like mtu=23", "bumble:ios-like"])
    }

    @Test("a phone-side link drop is the BlueZ phone's: not applicable on Bumble, with the step and why; it runs on BlueZ")
    func phoneSideDrop() throws {
        let json = #"{"name": "phone drop", "steps": [{"tap": {}}, {"linkDrop": {"forMs": 1500, "adapter": "phone"}, "expect": {"link": "reconnected"}}]}"#
        let drop = try Scenario.parse(try JSONParser().parse(json), file: "phone-drop.json")
        let onBumble = RunPlan([drop], repeats: 1, choice: .only(.ble), phone: PhoneChoice(stack: .bumble, profile: "ios-like"))
        #expect(onBumble.items.isEmpty)
        #expect(onBumble.notApplicable.map(\.result.message) == ["not applicable on ble: steps[1] drops the link from the phone's side by powering its adapter off in bluetoothd, and the Bumble phone owns its adapter (the BlueZ phone runs it: hil run --phone bluez)"])
        #expect(RunPlan([drop], repeats: 1, choice: .only(.ble)).items.count == 1)
    }
}
