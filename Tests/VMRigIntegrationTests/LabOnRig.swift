import Foundation
import HILTestSupport
import Processes
import Testing

/// `hil lab run` on a real labgrid lab on this machine (Rigs/labgrid/try-locally.sh: a coordinator on loopback, an
/// exporter per box, each box a network namespace reached over SSH that brings up its own vm rig), interrupted in
/// the middle of the run: every place must be given back and every reservation cancelled, and a box that fails its
/// health check is reported and left out.
@Suite("hil lab run on labgrid, interrupted mid-run", .serialized, .tags(.rig))
struct LabOnRig {
    @Test("Ctrl-C mid-run: exit 130, the boxes' results so far merged, no place left locked, the broken box reported")
    func interruptedRun() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hil-lab-\(getpid())")
        defer { try? FileManager.default.removeItem(at: output) }
        let script = packageRoot.appendingPathComponent("Rigs/labgrid/try-locally.sh").path
        let run = try await RigLock.exclusive {
            // ChildProcess, not Foundation's Process: the script's coordinator and exporters must not inherit this
            // thread's blocked signals (a dispatch thread's mask blocks SIGTERM, and the lab's teardown then waits).
            let run = try ChildProcess.runBlocking("/bin/bash", arguments: [
                script, "--broken-box", "--interrupt-mid-run", "--port", "20418", "--output", output.path,
                "--", "Scenarios/cursor", "Scenarios-nightly/cursor",
            ], errors: .joined, ownProcessGroup: false, timeout: nil)
            return (status: run.status, output: run.standardOutput)
        }
        let text = run.output
        #expect(run.status == 0, "try-locally.sh did not pass:\n\(text.suffix(5000))")
        #expect(text.contains("lab: 3 reservation(s) for kind=hil"), "\(text.suffix(5000))")
        #expect(text.contains("lab: box3 FAILED its health check, left out of this run"), "\(text.suffix(5000))")
        #expect(text.contains("interrupting hil lab run (SIGINT) mid-run: 2 of 2 box(es) running scenarios"), "\(text.suffix(5000))")
        #expect(text.contains("hil lab run exited with status 130"), "\(text.suffix(5000))")
        #expect(text.contains("lab: released box1, box2; reservations cancelled"), "\(text.suffix(5000))")
        #expect(text.contains("places left locked: 0; reservations left: 0"), "\(text.suffix(5000))")
        #expect(text.contains("box3   free") && text.contains("health FAILED"), "\(text.suffix(3000))")

        let lab = try String(contentsOf: output.appendingPathComponent("lab.json"), encoding: .utf8)
        #expect(lab.contains(#""outcome" : "interrupted""#), "\(lab)")
        #expect(!lab.contains(#""released" : false"#), "a place not given back: \(lab)")
        // What the boxes had done before the interrupt is kept: merged, each shard's environment naming its place.
        let results = try String(contentsOf: output.appendingPathComponent("results.json"), encoding: .utf8)
        #expect(results.contains(#""labPlace" : "box1""#) && results.contains(#""labPlace" : "box2""#),
                "\(results.prefix(1500))\nthe lab's output:\n\(text.suffix(4000))")
    }
}
