import Foundation
import HILTestSupport
import Processes
import Testing

/// The hardware nightly path, rehearsed in a vm guest of its own (Rigs/hardware/rehearse-in-vm.sh, short form): the
/// box set up by install.sh, nights run as user hil as the timer runs them, one history of them.
@Suite("the hardware nightly path, rehearsed in the vm guest", .serialized, .tags(.rig))
struct RehearsalOnRig {
    @Test("two short nights as user hil: the BLE scenarios pass, the tcp one is not applicable on a box, the history page is written, and doctor's checks pass", .bootsItsOwnGuest)
    func twoShortNights() async throws {
        let binary = try hilBinary()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hil-rehearsal-\(getpid())")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try await RigLock.exclusive {
            try ChildProcess.runBlocking(
                "/usr/bin/env", arguments: ["HIL=\(binary)", "bash", "Rigs/hardware/rehearse-in-vm.sh", "--nights", "2", "--short", "--output", output.path],
                workingDirectory: packageRoot.path, errors: .joined, output: 64 << 20, ownProcessGroup: false, timeout: .seconds(1800))
        }
        let text = run.standardOutput
        #expect(run.status == 0, "the rehearsal exited \(run.status):\n\(text.suffix(6000))")
        #expect(text.contains("rehearsal: left out: faults/bluetoothd-restart.json"), "\(text.suffix(3000))")
        #expect(text.contains("rehearsal: left out: the Bumble phone's runs"), "\(text.suffix(3000))")
        #expect(text.contains("this user is in group hil") && text.contains("is writable"), "doctor as user hil:\n\(text.suffix(6000))")
        // Each night's hil run: the three BLE scenarios of the short form pass; its tcp one is not applicable on a
        // box, which has no network hosts.
        let nights = text.split(separator: "\n").filter { $0.hasPrefix("3 passed, 0 failed, 1 not applicable") }
        #expect(nights.count == 2, "\(text.suffix(6000))")
        #expect(text.contains("rehearsal: 2 night(s), 0 failed"), "\(text.suffix(3000))")
        let latest = try FileManager.default.destinationOfSymbolicLink(atPath: output.appendingPathComponent("nightly/latest").path)
        let page = try String(contentsOf: output.appendingPathComponent("nightly/\(latest)/history.html"), encoding: .utf8)
        #expect(page.contains("<svg") && page.contains("Scenarios run by run"), "the history page lacks its charts or grid")
    }
}
