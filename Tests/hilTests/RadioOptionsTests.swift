import Foundation
@testable import hil
import HILTestSupport
import Records
import Rig
import RigControl
import Testing

@Suite("--radio-interval: hil run and hil bench choose the vm rig's radio for one run; results name it")
struct RadioOptionsTests {
    static func rig(_ name: String) throws -> RigDefinition {
        try #require(try RigCatalog(directory: packageRoot.appendingPathComponent("Rigs").path).rigs.first { $0.name == name })
    }

    @Test("a number is the connection-event model at that interval; 0 and immediate are today's immediate model")
    func values() throws {
        let run = try parsed(words("run --radio-interval 15"), as: RunCommand.self)
        #expect(run.radioOptions.radioInterval == RigDefinition.Radio(model: .connectionEvents, intervalMs: 15))
        let bench = try parsed(words("bench --radio-interval 7.5"), as: BenchCommand.self)
        #expect(bench.radioOptions.radioInterval == RigDefinition.Radio(model: .connectionEvents, intervalMs: 7.5))
        for immediate in ["0", "immediate"] {
            #expect(try parsed(words("bench --radio-interval \(immediate)"), as: BenchCommand.self).radioOptions.radioInterval
                == RigDefinition.Radio())
        }
        #expect(try parsed(words("run"), as: RunCommand.self).radioOptions.radioInterval == nil)
    }

    @Test("an interval no link can have is refused with what is allowed", arguments: ["16", "5", "5000", "fast", "0.5"])
    func refused(_ value: String) {
        let (command, message) = parse(["bench", "--radio-interval", value])
        #expect(command == nil)
        #expect(message.contains("takes 0 or immediate (btvirt delivers at once), or 7.5 to 4000 ms in steps of 1.25"), "\(message)")
    }

    @Test("it replaces a vm rig's radio; any other rig refuses it, saying to run with --rig vm")
    func appliedToRigs() throws {
        let options = try parsed(words("run --radio-interval 30"), as: RunCommand.self).radioOptions
        let vm = try options.applied(to: Self.rig("vm"))
        #expect(vm.radio == RigDefinition.Radio(model: .connectionEvents, intervalMs: 30))
        for name in ["hardware", "virtual"] {
            #expect { try options.applied(to: Self.rig(name)) } throws: { error in
                "\(error)".contains("--radio-interval: rig \(name) is a") && "\(error)".contains("Run with --rig vm")
            }
        }
        // Without the option every rig keeps its own.
        let none = try parsed(words("run"), as: RunCommand.self).radioOptions
        #expect(try none.applied(to: Self.rig("hardware")) == Self.rig("hardware"))
    }

    @Test("the guest learns the radio it runs with through HIL_RADIO_MODEL and HIL_RADIO_INTERVAL_MS, and results name it")
    func environment() throws {
        let radio = RigDefinition.Radio(model: .connectionEvents, intervalMs: 7.5)
        let variables = RigEnvironment(radio: radio).variables
        #expect(variables["HIL_RADIO_MODEL"] == "connectionEvents" && variables["HIL_RADIO_INTERVAL_MS"] == "7.5")
        #expect(try RigEnvironment(from: variables).radio == radio)
        #expect(RigEnvironment(radio: RigDefinition.Radio()).variables["HIL_RADIO_INTERVAL_MS"] == nil)
        #expect(throws: RigError.self) { try RigEnvironment(from: ["HIL_RADIO_MODEL": "fast"]) }
        // The environment's radio wins over the rig file's; a real radio has no model.
        let named = RunCommand.radio(try Self.rig("vm"), environment: try RigEnvironment(from: variables))
        #expect(named == RunEnvironment(radio: "btvirt", radioModel: "connectionEvents", radioIntervalMs: 7.5, radioErrorRate: 0))
        let vm = try Self.rig("vm")
        let fromFile = RunCommand.radio(vm, environment: RigEnvironment())
        #expect(fromFile.radio == "btvirt" && fromFile.radioModel == vm.radio.model.rawValue)
        #expect(RunCommand.radio(try Self.rig("hardware"), environment: nil) == RunEnvironment(radio: "existing"))
        // Rehearsed in the vm guest, the hardware rig's adapters are btvirt's: its results say so.
        var rehearsal = try Self.rig("hardware")
        rehearsal.virtualAdapters = true
        #expect(RunCommand.radio(rehearsal, environment: RigEnvironment()) == RunEnvironment(radio: "btvirt", radioModel: "immediate"))
    }

    @Test("--radio-error-rate: on run, bench, calibrate and soak; 0 to under 1; needs the connection-event radio; the guest and results learn it")
    func errorRate() throws {
        for command in ["run", "bench", "calibrate", "soak"] {
            #expect(throws: Never.self, "\(command)") { _ = try HIL.parseAsRoot(words("\(command) --radio-error-rate 0.3")) }
        }
        for bad in ["1", "1.0", "1.5", "lots"] {
            let (command, message) = parse(["run", "--radio-error-rate", bad])
            #expect(command == nil && message.contains("--radio-error-rate takes 0 to under 1"), "\(bad): \(message)")
        }
        let options = try parsed(words("run --radio-error-rate 0.1"), as: RunCommand.self).radioOptions
        // Alone, without --radio-interval, it still changes the radio the rig boots with (a run once ignored it).
        let plain = try parsed(words("run"), as: RunCommand.self).radioOptions
        #expect(options.changesTheRadio && !plain.changesTheRadio)
        let vm = try options.applied(to: Self.rig("vm"))
        #expect(vm.radio.packetErrorRate == 0.1 && vm.radio.model == .connectionEvents)
        #expect(vm.radio.kernelArguments(hil: "/h").contains("HIL_RADIO_ERROR_RATE=0.1"))
        #expect(vm.radio.summary == "connection events every 15 ms, packet error rate 0.1")
        // An immediate radio has no air to lose packets in.
        let immediate = try parsed(words("run --radio-interval 0 --radio-error-rate 0.1"), as: RunCommand.self).radioOptions
        #expect { try immediate.applied(to: Self.rig("vm")) } throws: { "\($0)".contains("add --radio-interval 15") }
        let variables = RigEnvironment(radio: vm.radio).variables
        #expect(variables["HIL_RADIO_ERROR_RATE"] == "0.1")
        #expect(try RigEnvironment(from: variables).radio == vm.radio)
        let named = RunCommand.radio(vm, environment: try RigEnvironment(from: variables))
        #expect(named.radioErrorRate == 0.1 && named.radioSummary == "connection events every 15 ms, packet error rate 0.1")
    }
}
