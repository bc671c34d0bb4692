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
        #expect(help.contains("64 (invalid input) when --rig names no rig in the rig files"), "\(help)")
        #expect(help.contains("69 (no usable rig, as hil run exits for the same cause) otherwise"), "\(help)")
        #expect(!help.contains("0 or 1"))
    }

    @Test("a kernel with no Bluetooth is said so, with the vm rig as the way out, and no bluetoothd to start")
    func hostWithoutBluetooth() {
        let facts = HostFacts(
            kernelRelease: "6.18", kernelBluetooth: false, bluetoothModuleAvailable: false, adapters: [], vhci: false,
            vhciModuleAvailable: false, uinputPath: nil, uinputWritable: false, uinputModuleAvailable: false,
            bluetoothdRunning: false, bluetoothdVersion: "5.66", tools: [:], isRoot: true)
        let lines = DoctorLines.host(facts).joined(separator: "\n")
        #expect(lines.contains("Bluetooth in the kernel: no: this kernel has no Bluetooth (CONFIG_BT): no /sys/class/bluetooth, no bluetooth module"))
        #expect(lines.contains("the vm rig boots its own kernel"))
        #expect(lines.hasSuffix("bluetoothd: not running"), "explained once, on the Bluetooth line")
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

    @Test("a kernel without Bluetooth is explained once: the host's line; each rig refers to it in a few words")
    func saidOnce() throws {
        let facts = HostFacts(
            kernelRelease: "6.18", kernelBluetooth: false, bluetoothModuleAvailable: false, adapters: [], vhci: false,
            vhciModuleAvailable: false, uinputPath: nil, uinputWritable: false, uinputModuleAvailable: false,
            bluetoothdRunning: false, bluetoothdVersion: "5.66", tools: [:], isRoot: true)
        let catalog = try RigCatalog(directory: Self.rigs)
        let rigs = catalog.rigs.flatMap { DoctorLines.rig(RigAssessment(rig: $0, facts: facts), facts: facts) }
        let text = (DoctorLines.host(facts) + rigs).joined(separator: "\n")
        #expect(text.components(separatedBy: "no /sys/class/bluetooth").count == 2, "explained more than once:\n\(text)")
        #expect(text.components(separatedBy: "CONFIG_BT").count == 2, "\(text)")
        #expect(rigs.filter { $0 == "    NO  no Bluetooth in this kernel (above)" }.count == 2, "hardware and virtual refer to it: \(rigs)")
    }

    @Test("the vm rig runs under TCG, and doctor says why not KVM: PVM's /dev/kvm boots no stock guest kernel")
    func tcg() async throws {
        var facts = HostFacts(
            kernelRelease: "6.18", kernelBluetooth: false, bluetoothModuleAvailable: false, adapters: [], vhci: false,
            vhciModuleAvailable: false, uinputPath: nil, uinputWritable: false, uinputModuleAvailable: false,
            bluetoothdRunning: false, bluetoothdVersion: "5.66", tools: [:], isRoot: true)
        facts.kvm = .pvm
        #expect(DoctorLines.accelerator(facts).contains("runs under TCG")
            && DoctorLines.accelerator(facts).contains("this kernel's /dev/kvm is PVM's (kvm_pvm), which boots only PVM-enabled guest kernels"))
        facts.kvm = .none
        #expect(DoctorLines.accelerator(facts).hasSuffix(": this kernel has no /dev/kvm"))
        facts.kvm = .hardware
        #expect(DoctorLines.accelerator(facts).contains("does not use this host's /dev/kvm"))
        // The built hil says it under the vm rig, for this host's kernel.
        let run = try await runSeparating(try RigGuest.hilBinary(), ["doctor", "--rigs", Self.rigs, "--rig", "vm"])
        #expect(run.output.contains(DoctorLines.accelerator(HostFacts.probe())), "\(run.output)")
    }

    @Test("a fix that runs the set-up script names it by its absolute path, so it works from any folder")
    func setupFromAnywhere() throws {
        let facts = HostFacts(
            kernelRelease: "6.18", kernelBluetooth: false, bluetoothModuleAvailable: false, adapters: [], vhci: false,
            vhciModuleAvailable: false, uinputPath: nil, uinputWritable: false, uinputModuleAvailable: false,
            bluetoothdRunning: false, bluetoothdVersion: "5.66", tools: [:], isRoot: true)
        let catalog = try RigCatalog(directory: Self.rigs)
        let lines = DoctorLines.rig(RigAssessment(rig: try catalog.rig(named: "vm"), facts: facts, rigsDirectory: catalog.directory), facts: facts)
        let script = URL(fileURLWithPath: Self.rigs).standardizedFileURL.appendingPathComponent("setup.sh").path
        #expect(lines.contains("        → run `bash \(script)` (installs the Debian packages)"), "\(lines)")
        #expect(!lines.contains { $0.contains("`bash Rigs/setup.sh`") }, "\(lines)")
    }

    @Test("netem's advice is what can work here: modprobe when the module is on disk for this kernel, else the vm rig")
    func netemAdvice() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-netem-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("lib/modules/6.1.0-9-amd64/kernel/net/sched"), withIntermediateDirectories: true)
        let none = DoctorNetwork.netemLine(root: root.path, release: "6.18.44")
        #expect(none.contains("no sch_netem and no module to load it from") && none.contains("--rig vm") && !none.contains("modprobe"), "\(none)")
        try Data().write(to: root.appendingPathComponent("lib/modules/6.1.0-9-amd64/kernel/net/sched/sch_netem.ko.xz"))
        let module = DoctorNetwork.netemLine(root: root.path, release: "6.1.0-9-amd64")
        #expect(module.contains("`sudo modprobe sch_netem`"), "\(module)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sys/module/sch_netem"), withIntermediateDirectories: true)
        #expect(DoctorNetwork.netemLine(root: root.path, release: "6.1.0-9-amd64").hasPrefix("ok  netem"))
    }

    @Test("no rig files: the same exit status (64, invalid input) and advice whether --rigs names a missing folder or none is found")
    func noRigFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("hil").path
        try FileManager.default.copyItem(atPath: try RigGuest.hilBinary(), toPath: copy)
        let copied = try await runSeparating(copy, ["doctor"], in: folder)
        let named = try await runSeparating(try RigGuest.hilBinary(), ["doctor", "--rigs", folder.appendingPathComponent("none").path], in: folder)
        #expect(copied.status == 64 && named.status == 64, "copied: \(copied.status) \(copied.errors); --rigs: \(named.status) \(named.errors)")
        #expect(copied.errors.contains("cannot find the Rigs/ folder") && copied.errors.contains("pass --rigs DIR"), "\(copied.errors)")
        #expect(!copied.errors.contains("Usage: hil <subcommand>"), "\(copied.errors)")
    }
}
