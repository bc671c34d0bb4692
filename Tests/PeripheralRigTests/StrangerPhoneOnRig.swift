import ComputerProcess
import Foundation
import HILTestSupport
import InputCodes
import Processes
import Testing

/// A phone that is not ours: `Rigs/reference/stranger_drags.py`, written from docs/protocol.md alone (dbus-python,
/// every write a `WriteValue` of type command or request, as bleak writes), does hundreds of drags against a real
/// `hil peripheral`; the kernel's events must be exactly its drags, in its order, with nothing held at the end.
/// A drag whose release overtook its moves shows as motion after the release, and (hid) as a second press that
/// nothing releases. Runs inside the rig (`InRigSuitesOnRig`), with the rig's radio and its one ATT bearer.
@Suite("StrangerPhoneOnRig", .serialized, .tags(.rig), .enabled(if: RigGuest.isInsideRig, "needs BlueZ and uinput: runs inside the rig via InRigSuitesOnRig"))
struct StrangerPhoneOnRig {
    static let drags = 500

    @Test("500 hid drags and 500 ble drags from a client written from the doc: every press released, nothing after a release, totals exact",
          arguments: ["hid", "ble"])
    func drags(transport: String) async throws {
        let state = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let uinputName = "RemoteTouch HIL stranger \(getpid())"
        let peripheral = try ChildProcess(try RigGuest.hilBinary(), [
            "peripheral", "--adapter", RigGuest.peripheralAdapter, "--state-dir", state, "--pairing-code-file", state + "/code",
            "--uinput-name", uinputName,
        ], output: .file(state + "/peripheral.log"), ownProcessGroup: false)
        defer {
            peripheral.signal(SIGINT)
            _ = peripheral.wait()
        }
        let collector = try await FrameCollector.open(uinputName, grab: true)
        defer { collector.stop() }
        let client = packageRoot.appendingPathComponent("Rigs/reference/stranger_drags.py").path
        let (status, output) = try await runCapturing("/usr/bin/python3", [
            client, "--adapter", RigGuest.centralAdapter, "--transport", transport, "--drags", "\(Self.drags)",
            "--code-file", state + "/code",
        ])
        let log = { (try? String(contentsOfFile: state + "/peripheral.log", encoding: .utf8)) ?? "" }
        try #require(status == 0, "stranger_drags.py exited \(status): \(output)\nhil peripheral:\n\(log().suffix(3000))")
        let totals = try #require(Self.totals(output), "stranger_drags.py printed no totals: \(output)")
        // The last release was answered before the client ended; its frame is in the kernel by then or soon after.
        var frames = collector.frames(since: MonotonicTime(nanoseconds: 0))
        for _ in 0..<100 where Self.count(frames, .btnLeft, 0) < totals.drags {
            try await Task.sleep(for: .milliseconds(20))
            frames = collector.frames(since: MonotonicTime(nanoseconds: 0))
        }
        let verdict = Self.judge(frames.map(\.frame))
        #expect(collector.droppedCount == 0, "the reader fell behind (SYN_DROPPED): the events cannot be judged")
        #expect(verdict.presses == totals.drags && verdict.releases == totals.drags,
                "\(transport): \(totals.drags) drags gave \(verdict.presses) presses and \(verdict.releases) releases")
        #expect(verdict.dx == totals.dx, "\(transport): REL_X adds up to \(verdict.dx), the client moved \(totals.dx)")
        #expect(verdict.outOfOrder.count == 0,
                "\(transport): \(verdict.outOfOrder.count) events out of a drag's order; the first: \(verdict.outOfOrder.prefix(5))")
        #expect(collector.heldKeys().isEmpty, "\(transport): held at the end: \(collector.heldKeys())")
        print("stranger \(transport): \(totals.drags) drags, \(totals.moves) moves in \(totals.seconds) s: \(verdict.presses) presses, \(verdict.releases) releases, REL_X \(verdict.dx), out of order \(verdict.outOfOrder.count)")
    }

    struct Totals {
        var drags: Int, moves: Int, dx: Int, seconds: Double
    }

    static func totals(_ output: String) -> Totals? {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let drags = object["drags"] as? Int, let moves = object["moves"] as? Int, let dx = object["dx"] as? Int
        else { return nil }
        return Totals(drags: drags, moves: moves, dx: dx, seconds: object["seconds"] as? Double ?? 0)
    }

    static func count(_ frames: [EvdevFrame], _ code: EventCode, _ value: Int32) -> Int {
        frames.reduce(0) { $0 + $1.frame.events.filter { $0.code == code && $0.value == value }.count }
    }

    /// Presses, releases and REL_X in the order the kernel reported them; every event that a drag done in order
    /// cannot give (motion while the button is up, a press while it is down, a release while it is up), by index.
    static func judge(_ frames: [InputFrame]) -> (presses: Int, releases: Int, dx: Int, outOfOrder: [String]) {
        var presses = 0, releases = 0, dx = 0, held = false
        var wrong: [String] = []
        for (index, frame) in frames.enumerated() {
            for event in frame.events {
                switch (event.code, event.value) {
                case (.btnLeft, 1):
                    if held { wrong.append("frame \(index): a press while held \(frame)") }
                    presses += 1
                    held = true
                case (.btnLeft, 0):
                    if !held { wrong.append("frame \(index): a release while up \(frame)") }
                    releases += 1
                    held = false
                case (.relX, let value):
                    if !held { wrong.append("frame \(index): motion with the button up \(frame)") }
                    dx += Int(value)
                default:
                    break
                }
            }
        }
        return (presses, releases, dx, wrong)
    }
}
