import ArgumentParser
import Foundation
@testable import hil
import HILTestSupport
import Rig
import Testing

/// `hil doctor`: what it says on a host like this one (no Bluetooth in the kernel), its exit status for a rig that
/// does not exist, the vm image, and what works without a rig.
@Suite("hil doctor")
struct DoctorTests {
    static let rigs = packageRoot.appendingPathComponent("Rigs").path

    @Test("--rig naming no rig is a usage error: exit 64, the rigs there are named; the help says so")
    func unknownRig() throws {
        do {
            _ = try HIL.parseAsRoot(["doctor", "--rig", "bogus", "--rigs", Self.rigs])
            Issue.record("doctor --rig bogus was accepted")
        } catch {
            #expect(HIL.exitCode(for: error) == ExitCode.validationFailure)
            #expect(HIL.exitCode(for: error).rawValue == 64)
            let message = HIL.message(for: error)
            #expect(message.contains("no rig named \"bogus\"") && message.contains("choose one of: auto, hardware, virtual, vm"),
                    "\(message)")
        }
        _ = try parsed(["doctor", "--rig", "vm", "--rigs", Self.rigs], as: DoctorCommand.self)
        let help = HIL.helpMessage(for: DoctorCommand.self, columns: 10_000)
        #expect(help.contains("64 when --rig names no rig in the rig files"))
        #expect(!help.contains("0 or 1"))
    }

    @Test("a kernel with no Bluetooth is said so, with the vm rig as the way out, and no bluetoothd to start")
    func hostWithoutBluetooth() {
        let facts = HostFacts(
            kernelRelease: "6.18", kernelBluetooth: false, bluetoothModuleAvailable: false, adapters: [], vhci: false,
            vhciModuleAvailable: false, uinputPath: nil, uinputWritable: false, uinputModuleAvailable: false,
            bluetoothdRunning: false, bluetoothdVersion: "5.66", tools: [:], isRoot: true)
        let lines = DoctorLines.host(facts).joined(separator: "\n")
        #expect(lines.contains("Bluetooth in the kernel: no: this kernel has no Bluetooth (CONFIG_BT)"))
        #expect(lines.contains("the vm rig boots its own kernel"))
        #expect(lines.contains("bluetoothd: not running (no Bluetooth in this kernel)"))
        #expect(!lines.contains("systemctl"))
    }

    @Test("the vm image: built (where, since when), not built (the first vm command builds it, where), or why it cannot tell")
    func image() {
        let built = DoctorLines.image(.built(folder: "/c/hil/vm/6.1.0-56-amd64-abc", at: Date(timeIntervalSince1970: 1_795_000_000)))
        #expect(built == "    --  image: built, in /c/hil/vm/6.1.0-56-amd64-abc (2026-11-18 11:06 UTC)")
        let missing = DoctorLines.image(.notBuilt(folder: "/c/hil/vm/6.1.0-56-amd64-abc"))
        #expect(missing.contains("not built") && missing.contains("builds it into /c/hil/vm/6.1.0-56-amd64-abc"))
        #expect(DoctorLines.image(.unknown("no apt lists")) == "    --  image: cannot tell whether it is built: no apt lists")
    }

    @Test("what works without any rig: validate, replay, decode, report and run --list, each in its own words")
    func withoutRig() {
        let lines = DoctorLines.withoutRig
        #expect(lines.first?.hasPrefix("works here without any rig") == true)
        for (command, abstract) in [("validate", ValidateCommand.configuration.abstract), ("replay", ReplayCommand.configuration.abstract),
                                    ("decode", DecodeCommand.configuration.abstract), ("report", ReportCommand.configuration.abstract)] {
            #expect(lines.contains { $0.hasPrefix("  hil \(command) ") && $0.hasSuffix(abstract) }, "\(command)")
        }
        #expect(lines.contains { $0.hasPrefix("  hil run --list ") })
    }
}
