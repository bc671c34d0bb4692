import RunContext
import Foundation
import RigControl
import Runner
import Scenario
import Testing

@Suite("Lanes in hil run: which scenarios share the rig, and each lane's own computer")
struct LanePoolTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    private static func items(_ files: [String], repeats: Int = 1) throws -> [LanePool.Item] {
        let scenarios = try files.map { try Scenario.load(contentsOf: root + "/" + $0) }
        return (1...repeats).flatMap { repetition in
            scenarios.enumerated().map { index, scenario in
                LanePool.Item(number: (repetition - 1) * scenarios.count + index + 1, repetition: repetition, index: index, scenario: scenario)
            }
        }
    }

    private static func context(lanes: Int) -> [RunContext] {
        let pairs = (0..<lanes).map { RunningRig.Lane(peripheral: "hci\(2 * $0)", central: "hci\(2 * $0 + 1)") }
        let rig = RunningRig(name: "vm", lanes: pairs, uinputName: "RemoteTouch HIL Virtual Input", latencyScale: 4)
        let base = RunContext(rig: rig, hil: "/bin/false", writePath: nil, workDirectory: "/tmp")
        return pairs.indices.map { base.lane($0, of: lanes) }
    }

    private static let files = ["Scenarios/cursor/swipe-right.json", "Scenarios-nightly/faults/bluetoothd-restart.json",
                                "Scenarios/clicks/tap-and-double-tap.json", "Scenarios-nightly/faults/a-thousand-malformed-writes.json"]

    @Test("one lane: everything in one batch, in the given order, across repeats")
    func oneLane() throws {
        let batches = LanePool(lanes: Self.context(lanes: 1)).batches(try Self.items(Self.files, repeats: 2))
        #expect(batches.map { $0.map(\.number) } == [[1, 2, 3, 4, 5, 6, 7, 8]])
    }

    @Test("two lanes: per repeat, the scenarios that share the rig, then bluetoothd's restart and the flood alone")
    func twoLanes() throws {
        let batches = LanePool(lanes: Self.context(lanes: 2)).batches(try Self.items(Self.files, repeats: 2))
        #expect(batches.map { $0.map(\.number) } == [[1, 3], [2], [4], [5, 7], [6], [8]])
        #expect(LanePool.needsTheWholeRig(batches[1][0].scenario) && LanePool.needsTheWholeRig(batches[2][0].scenario))
        #expect(!LanePool.needsTheWholeRig(batches[0][0].scenario))
    }

    @Test("two lanes: a tcp run goes alone (one computer host, one port, one Bonjour name for every lane)")
    func tcpAlone() throws {
        var items = try Self.items(["Scenarios/cursor/swipe-right.json", "Scenarios/clicks/tap-and-double-tap.json", "Scenarios/cursor/swipe-right.json"])
        items[1].transport = .tcp
        let batches = LanePool(lanes: Self.context(lanes: 2)).batches(items)
        #expect(batches.map { $0.map(\.number) } == [[1, 3], [2]])
        #expect(LanePool.runsAlone(items[1]) && !LanePool.runsAlone(items[0]))
    }
}
