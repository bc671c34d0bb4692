import Rig
import RunContext
import Testing

/// What a run's scenarios, benches and soaks share (`RunContext`): each lane's own part of it, and the rig's hosts.
@Suite("A run's context: its lanes, and the hosts a network transport needs")
struct RunContextTests {
    static let base = RunContext(hil: "/bin/false", peripheralAdapter: "hci0", centralAdapter: "hci1",
                                 uinputName: "RemoteTouch HIL Virtual Input", latencyScale: 4, writePath: nil, workDirectory: "/tmp")

    static func context(lanes: Int) -> [RunContext] {
        let pairs = (0..<lanes).map { RigEnvironment.Lane(peripheral: "hci\(2 * $0)", central: "hci\(2 * $0 + 1)") }
        return pairs.indices.map { base.lane($0, of: pairs) }
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
        let pairs = [RigEnvironment.Lane(peripheral: "hci0", central: "hci1"), RigEnvironment.Lane(peripheral: "hci2", central: "hci3")]
        #expect(long.lane(1, of: pairs).uinputName.utf8.count == 79, "a uinput name has at most 79 bytes")
    }

    @Test("a network transport on a rig without two hosts: an error that names what needed them and where they are")
    func noHosts() throws {
        let error = try #require(throws: RunContextError.self) { try Self.base.networkHosts(for: "the tcp transport") }
        #expect(error.code == .hosts)
        #expect(error.what.hasPrefix("the tcp transport needs the rig's two hosts"), "\(error)")
        #expect(error.what.contains("run in the vm rig, or see `hil doctor`"), "\(error)")
        var hosted = Self.base
        hosted.network = NetworkHosts(phoneNetns: "hil-phone", phoneBus: "unix:path=/run/a", computerNetns: "hil-computer",
                                      computerBus: "unix:path=/run/b")
        #expect(try hosted.networkHosts(for: "the tcp transport") == hosted.network)
    }
}
