import RigControl
import RunContext
import Testing

/// What a run's scenarios, benches and soaks share (`RunContext`): the running rig, each lane's own part of it, and
/// the rig's hosts.
@Suite("A run's context: the running rig, its lanes, and the hosts a network transport needs")
struct RunContextTests {
    static func rig(lanes: Int, network: NetworkHosts? = nil) -> RunningRig {
        RunningRig(name: "vm", lanes: (0..<lanes).map { RunningRig.Lane(peripheral: "hci\(2 * $0)", central: "hci\(2 * $0 + 1)") },
                   uinputName: "RemoteTouch HIL Virtual Input", latencyScale: 4, network: network)
    }

    static func context(lanes: Int) -> [RunContext] {
        let base = RunContext(rig: rig(lanes: lanes), hil: "/bin/false", writePath: nil, workDirectory: "/tmp")
        return (0..<lanes).map { base.lane($0, of: lanes) }
    }

    @Test("each lane has its adapters; the second on has its own uinput name; the phone picks its computer by address")
    func laneContexts() {
        let lanes = Self.context(lanes: 2)
        #expect(lanes.map(\.peripheralAdapter) == ["hci0", "hci2"])
        #expect(lanes.map(\.centralAdapter) == ["hci1", "hci3"])
        #expect(lanes.map(\.uinputName) == ["RemoteTouch HIL Virtual Input", "RemoteTouch HIL Virtual Input (lane 2)"])
        #expect(lanes.allSatisfy { $0.onlyThisComputer })
        #expect(!Self.context(lanes: 1)[0].onlyThisComputer)
        var long = lanes[0]
        long.uinputName = String(repeating: "x", count: 79)
        #expect(long.lane(1, of: 2).uinputName.utf8.count == 79, "a uinput name has at most 79 bytes")
    }

    @Test("the running rig is the context's: its latency scale, its controllers, its hosts, one value for every lane")
    func carriesTheRig() {
        let lanes = Self.context(lanes: 2)
        #expect(lanes.allSatisfy { $0.latencyScale == 4 && $0.rig.name == "vm" && $0.rig.lanes.count == 2 })
        #expect(lanes.allSatisfy { !$0.emulatedControllers && $0.network == nil })
    }

    @Test("a network transport on a rig without two hosts: an error that names what needed them and where they are")
    func noHosts() throws {
        let base = RunContext(rig: Self.rig(lanes: 1), hil: "/bin/false", writePath: nil, workDirectory: "/tmp")
        let error = try #require(throws: RunContextError.self) { try base.networkHosts(for: "the tcp transport") }
        #expect(error.code == .hosts)
        #expect(error.what.hasPrefix("the tcp transport needs the rig's two hosts"), "\(error)")
        #expect(error.what.contains("run in the vm rig, or see `hil doctor`"), "\(error)")
        let hosts = NetworkHosts(phoneNetns: "hil-phone", phoneBus: "unix:path=/run/a", computerNetns: "hil-computer",
                                 computerBus: "unix:path=/run/b")
        let hosted = RunContext(rig: Self.rig(lanes: 1, network: hosts), hil: "/bin/false", writePath: nil, workDirectory: "/tmp")
        #expect(try hosted.networkHosts(for: "the tcp transport") == hosts)
    }
}
