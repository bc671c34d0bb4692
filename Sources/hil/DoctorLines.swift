import Foundation
import Rig

/// The lines `hil doctor` prints, from what the probes found: the host, each rig's checks, the vm image, and what
/// works without a rig.
enum DoctorLines {
    /// The host: kernel, BlueZ, Bluetooth in the kernel, adapters, hci_vhci, uinput, bluetoothd.
    static func host(_ facts: HostFacts) -> [String] {
        let noBluetooth = !facts.kernelBluetooth && !facts.bluetoothModuleAvailable
        let bluetooth = facts.kernelBluetooth ? "yes" : facts.bluetoothModuleAvailable
            ? "module on disk, not loaded"
            : "no: this kernel has no Bluetooth (CONFIG_BT): no /sys/class/bluetooth, no bluetooth module; the "
                + "hardware and virtual rigs cannot run on it, and the vm rig boots its own kernel"
        let adapters = facts.adapters.map { "\($0.name)\($0.isHardware ? "" : " (virtual)")" }
        let vhci = facts.vhci ? "loaded" : facts.vhciModuleAvailable ? "module on disk, not loaded" : "no"
        let uinput = facts.uinputPath.map { "\($0)\(facts.uinputWritable ? "" : " (not writable)")" }
            ?? (facts.uinputModuleAvailable ? "module on disk, not loaded" : "no")
        let bluetoothd = facts.bluetoothdRunning ? "running" : "not running"
        return [
            "host: kernel \(facts.kernelRelease), BlueZ \(facts.bluetoothdVersion ?? "not installed"), \(facts.isRoot ? "root" : "not root")",
            "  Bluetooth in the kernel: \(bluetooth)",
            "  adapters: \(adapters.isEmpty ? "none" : adapters.joined(separator: ", "))",
            "  hci_vhci: \(vhci)",
            "  uinput: \(uinput)",
            "  bluetoothd: \(bluetoothd)",
        ]
    }

    /// A rig's verdict and every check, each failed one with its fix; a kernel without Bluetooth, which the host's
    /// lines explain with the way out, is referred to, not said again.
    static func rig(_ assessment: RigAssessment, facts: HostFacts) -> [String] {
        var lines = ["  \(assessment.rig.name): \(assessment.canRun ? "can run" : "cannot run")"]
        for check in assessment.checks {
            if check.finding == RigAssessment.noBluetooth(facts) {
                lines.append("    NO  no Bluetooth in this kernel (above)")
                continue
            }
            lines.append("    \(check.passed ? "ok " : "NO ") \(check.finding)")
            if let fix = check.fix { lines.append("        → \(fix)") }
        }
        return lines
    }

    /// Whether the vm rig's image is built (`VMImage.cache`): not a check, as the first vm command builds it.
    static func image(_ cache: VMImage.Cache) -> String {
        switch cache {
        case .built(let folder, let at):
            return "    --  image: built, in \(folder)" + (at.map { " (\(stamp($0)))" } ?? "")
        case .notBuilt(let folder):
            return "    --  image: not built for these rig scripts: the first vm command (hil run, hil vm exec) builds it "
                + "into \(folder), downloading Debian's kernel and busybox (network, and `apt-get update` done)"
        case .unknown(let reason):
            return "    --  image: cannot tell whether it is built: \(reason)"
        }
    }

    /// How the vm rig's guest runs: under TCG, QEMU emulating its CPU (VMRunner's `-accel tcg`), and why not KVM here.
    static func accelerator(_ facts: HostFacts) -> String {
        let tcg = "    --  runs under TCG (QEMU emulates the guest's CPU: about 15 s to a ready rig, and every instruction in the "
            + "guest costs more than on this host)"
        switch facts.kvm {
        case .pvm:
            return tcg + ": this kernel's /dev/kvm is PVM's (kvm_pvm), which boots only PVM-enabled guest kernels, not the "
                + "stock Debian kernel the guest runs"
        case .hardware:
            return tcg + ": the rig does not use this host's /dev/kvm; its timings and latency limits are TCG's"
        case .none:
            return tcg + ": this kernel has no /dev/kvm"
        }
    }

    /// The commands that need no rig at all, in their own words (their abstracts).
    static var withoutRig: [String] {
        let commands: [(name: String, abstract: String)] = [
            ("validate", ValidateCommand.configuration.abstract),
            ("replay", ReplayCommand.configuration.abstract),
            ("decode", DecodeCommand.configuration.abstract),
            ("report", ReportCommand.configuration.abstract),
            ("run --list", "List the scenarios and the requirement coverage (requirements.json) without running anything."),
        ]
        return ["works here without any rig (no Bluetooth, uinput or vm needed):"]
            + commands.map { "  hil \($0.name.padding(toLength: 11, withPad: " ", startingAt: 0)) \($0.abstract)" }
    }

    /// `2026-11-27 03:40` in UTC.
    private static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}
