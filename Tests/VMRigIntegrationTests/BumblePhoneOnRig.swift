import Foundation
import HILTestSupport
import Testing

/// The Bumble phone (issue 52) in the rig: a phone that dies mid-scenario, and the smallest MTU.
@Suite("hil run --phone bumble, end to end", .serialized, .tags(.rig), .inSharedGuest)
struct BumblePhoneOnRig {
    @Test("the phone's host killed mid-drag: an error with its last lines, the computer lets go, a new phone serves the next scenarios, MTU 23's long write arrives whole")
    func killedAndSmallest() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hil-bumble-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A long press starts a drag (BTN_LEFT held) and the finger stays down: the kill lands in the wait.
        try #"""
            {"name": "a drag the phone's host does not survive", "requirements": ["R12.2"], "settings": {"acceleration": "none"},
             "steps": [{"touches": [{"atMs": 0, "points": [[100, 300]]}, {"atMs": 600, "points": [[100, 300]]},
                                    {"atMs": 700, "points": [[110, 300]]}],
                        "expect": {"keys": ["BTN_LEFT 1"]}},
                       {"wait": {"ms": 12000}},
                       {"touches": [{"atMs": 0, "points": [[110, 300]]}, {"atMs": 50, "points": []}]}]}
            """#.write(to: folder.appendingPathComponent("1-killed.json"), atomically: true, encoding: .utf8)
        try #"""
            {"name": "the next scenario, on a new phone", "requirements": ["R2.1"], "steps": [
              {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "nothingElse": true, "withinMs": 600}}]}
            """#.write(to: folder.appendingPathComponent("2-next.json"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Scenarios-nightly/phones/mtu-23-long-text.json"),
                                         to: folder.appendingPathComponent("3-mtu-23.json"))
        let binary = try hilBinary()
        // The kill comes 1 s after the computer received the drag's start (the long press): in the 12 s wait, with
        // the button held.
        let script = """
            '\(binary)' run --phone bumble --capture never --output /tmp/hil-bumble '\(folder.path)' > /tmp/bumble.log 2>&1 & P=$!
            n=0; while kill -0 $P 2>/dev/null && ! grep -qs dragStart "$HIL_SCRATCH/run-$P"/001-*/receipts.log && [ $n -lt 1200 ]; do sleep 0.1; n=$((n+1)); done
            sleep 1; pkill -KILL -f '[R]igs/bumble/phone.py'; echo killed
            wait $P; echo "status=$?"
            cat /tmp/bumble.log
            grep -o '"phone" *: *"[^"]*"' /tmp/hil-bumble/results.json | sort | uniq -c
            """
        let run = try inGuest("sh", script, seconds: 600)
        let tail = String(run.output.suffix(4000))
        #expect(run.status != 124, "the run hung (stopped after 600 s): \(tail)")
        #expect(run.output.contains("killed"), "\(tail)")
        #expect(run.output.contains("status=1"), "\(tail)")
        #expect(run.output.contains("[1/3] ERROR a drag the phone's host does not survive"), "\(tail)")
        #expect(run.output.contains("the Bumble phone's process exited") && run.output.contains("its last lines:"), "\(tail)")
        // The computer let go of the button once the link went (R12): its frames say it held BTN_LEFT at the death
        // and released it after (the radio bridge ends the link when bluetoothd resets the dead phone's adapter).
        #expect(run.output.contains("the phone's host died: BTN_LEFT held when it died, released "), "\(tail)")
        #expect(run.output.components(separatedBy: "starting the Bumble phone on hci1").count == 3, "a second phone for the next scenario: \(tail)")
        #expect(run.output.contains("[2/3] PASSED the next scenario, on a new phone"), "\(tail)")
        #expect(run.output.contains("[3/3] PASSED at an ATT MTU of 23 a 200-character text command written with response arrives whole"), "\(tail)")
        #expect(run.output.contains("\"phone\" : \"bumble:minimal\""), "results.json names the scenario's profile: \(tail)")
    }
}
