package import RigControl
import Foundation

/// Whether a rig can run on this host, check by check, each failed one with what to do.
package struct RigAssessment: Sendable {
    package struct Check: Sendable, Hashable {
        package var passed: Bool
        /// What was checked and what was found: "2 hardware adapters (hci0, hci1)".
        package var finding: String
        /// The next step when it failed.
        package var fix: String?
    }

    package let rig: RigDefinition
    package let checks: [Check]

    package var canRun: Bool { checks.allSatisfy(\.passed) }
    package var failures: [Check] { checks.filter { !$0.passed } }

    /// A kernel with no Bluetooth at all, as every rig that needs it says it (and `hil doctor`'s host line explains,
    /// once: no /sys/class/bluetooth, no bluetooth module).
    package static func noBluetooth(_ facts: HostFacts) -> String {
        "this kernel (\(facts.kernelRelease)) has no Bluetooth (CONFIG_BT)"
    }

    /// The set-up script by its absolute path: the one beside the rig files in use, else the project's (found as the
    /// rig files are: `RigCatalog.locate`), else `Rigs/setup.sh` as it is named from the project folder.
    package static func setupScript(rigsDirectory: String?) -> String {
        for folder in [rigsDirectory, RigCatalog.locate()].compactMap({ $0 }) {
            let script = URL(fileURLWithPath: folder).standardizedFileURL.appendingPathComponent("setup.sh").path
            if FileManager.default.fileExists(atPath: script) { return script }
        }
        return "Rigs/setup.sh"
    }

    /// The oldest BlueZ with everything the rig uses (AcquireWrite/AcquireNotify, LE advertising manager).
    package static let minimumBlueZ = [5, 50]

    /// - Parameter rigsDirectory: the folder of the rig files in use, whose `setup.sh` the fixes name by its absolute
    ///   path (`Self.setupScript`), so they work from any folder.
    package init(rig: RigDefinition, facts: HostFacts, rigsDirectory: String? = nil) {
        self.rig = rig
        var checks: [Check] = []
        func check(_ passed: Bool, _ finding: String, fix: @autoclosure () -> String) {
            checks.append(Check(passed: passed, finding: finding, fix: passed ? nil : fix()))
        }
        let setup = "run `bash \(Self.setupScript(rigsDirectory: rigsDirectory))` (installs the Debian packages)"
        func tool(_ name: String, _ purpose: String) {
            check(
                facts.tools[name] != nil,
                facts.tools[name].map { "\(name) at \($0)" } ?? "\(name) not found (\(purpose))", fix: setup)
        }

        // A kernel without Bluetooth at all (not loaded, no module on disk) has no adapter, no hci_vhci and no
        // bluetoothd that could start: the kernel check says so once, and the checks that follow from it are left
        // out rather than each advising what cannot work here.
        let noBluetooth = !facts.kernelBluetooth && !facts.bluetoothModuleAvailable
        switch rig.kind {
        case .hardware, .virtual:
            if noBluetooth {
                check(false, Self.noBluetooth(facts), fix: "use the vm rig (`--rig vm`), which boots its own kernel")
            } else {
                check(
                    facts.kernelBluetooth,
                    facts.kernelBluetooth ? "kernel Bluetooth (/sys/class/bluetooth)" : "kernel has no Bluetooth loaded: /sys/class/bluetooth is missing",
                    fix: "load it: `sudo modprobe bluetooth`")
            }
            Self.uinputChecks(facts, check)
        case .vm:
            break
        }

        switch rig.kind {
        case .hardware:
            if !noBluetooth { Self.adapterChecks(rig, facts, check) }
            Self.versionCheck(facts, check)
            if !facts.isRoot { Self.nightlyBoxChecks(facts, check) }
        case .virtual:
            let vhciHint =
                facts.vhciModuleAvailable
                ? "load it: `sudo modprobe hci_vhci`"
                : "this kernel (\(facts.kernelRelease)) has no hci_vhci (CONFIG_BT_HCIVHCI); use the vm rig (`--rig vm`)"
            if !noBluetooth {
                check(facts.vhci, facts.vhci ? "hci_vhci (/dev/vhci)" : "hci_vhci is not loaded: /dev/vhci is missing", fix: vhciHint)
            }
            tool("btvirt", "makes the two virtual controllers; package bluez-test-tools")
            if rig.bluetoothd == .private {
                tool("bluetoothd", "package bluez")
                tool("dbus-daemon", "package dbus")
                check(facts.isRoot, facts.isRoot ? "running as root" : "not root",
                      fix: "btvirt and a private bluetoothd need root: run with sudo, or use the vm rig")
            } else if !noBluetooth {
                check(facts.bluetoothdRunning, facts.bluetoothdRunning ? "bluetoothd running" : "bluetoothd is not running",
                      fix: "start it: `sudo systemctl start bluetooth`")
            }
            Self.versionCheck(facts, check)
        case .vm:
            tool("qemu-system-x86_64", "runs the guest; package qemu-system-x86")
            // The guest runs this host's root filesystem: its BlueZ is the guest's BlueZ.
            tool("bluetoothd", "the guest's bluetoothd comes from this host; package bluez")
            tool("btvirt", "the guest's virtual controllers; package bluez-test-tools")
            tool("bluetoothctl", "package bluez")
            tool("dbus-daemon", "the guest's system bus; package dbus")
            tool("cpio", "builds the guest's initramfs")
            tool("depmod", "orders the guest's kernel modules; package kmod")
            tool("apt-get", "downloads Debian's kernel and busybox for the guest")
            tool("dpkg-deb", "unpacks them")
            Self.versionCheck(facts, check)
        }
        self.checks = checks
    }

    /// Two hardware adapters, the rig file's names among them, and bluetoothd running (a kernel with Bluetooth).
    private static func adapterChecks(_ rig: RigDefinition, _ facts: HostFacts,
                                      _ check: (Bool, String, @autoclosure () -> String) -> Void)
    {
        // A rehearsal in the vm guest (`virtualAdapters`) takes its btvirt controllers as the box's adapters.
        let hardware = rig.virtualAdapters ? facts.adapters : facts.hardwareAdapters
        let kind = rig.virtualAdapters ? "" : "hardware "
        check(
            hardware.count >= 2,
            "\(hardware.count) \(kind)adapter(s)" + (hardware.isEmpty ? "" : " (" + hardware.map(\.name).joined(separator: ", ") + ")"),
            hardware.isEmpty
                ? "the hardware rig needs two Bluetooth adapters with a radio link between them: plug in two USB Bluetooth adapters"
                : "the hardware rig needs two adapters with a radio link between them: plug in a second USB Bluetooth adapter")
        for (role, name) in [("peripheral", rig.peripheralAdapter), ("central", rig.centralAdapter)] {
            let present = facts.adapters.contains { $0.name == name }
            // With no adapter at all there is no name to choose: the count's fix above says what to do.
            guard !facts.adapters.isEmpty else { continue }
            check(present, "\(role) adapter \(name) " + (present ? "present" : "missing"),
                  "set \"\(role)Adapter\" in \(rig.name).json to one of: " + facts.adapters.map(\.name).joined(separator: ", "))
        }
        check(facts.bluetoothdRunning, facts.bluetoothdRunning ? "bluetoothd running" : "bluetoothd is not running",
              "start it: `sudo systemctl start bluetooth`")
    }

    /// A nightly box runs as user hil: what Rigs/hardware/install.sh puts in place.
    private static func nightlyBoxChecks(_ facts: HostFacts, _ check: (Bool, String, @autoclosure () -> String) -> Void) {
        let install = "run `sudo bash Rigs/hardware/install.sh` (group hil, the D-Bus policy, the udev rule, the polkit rule, the nightly timer)"
        check(facts.withoutRoot.inGroup, facts.withoutRoot.inGroup ? "this user is in group hil" : "this user is not in group hil",
              "`sudo usermod -aG hil $USER` and log in again, or " + install)
        check(facts.withoutRoot.dbusPolicy,
              "D-Bus policy /\(HostFacts.dbusPolicyFile) " + (facts.withoutRoot.dbusPolicy ? "installed" : "missing"), install)
        check(facts.withoutRoot.udevRule,
              "udev rule /\(HostFacts.udevRuleFile) " + (facts.withoutRoot.udevRule ? "installed" : "missing (uinput and the verifier's event node for group hil)"),
              install)
        check(facts.withoutRoot.polkitRule,
              "polkit rule /\(HostFacts.polkitRuleFile) " + (facts.withoutRoot.polkitRule ? "installed" : "missing (the restartBluetoothd fault step restarts bluetooth.service)"),
              install)
    }

    private static func uinputChecks(_ facts: HostFacts, _ check: (Bool, String, @autoclosure () -> String) -> Void) {
        if let path = facts.uinputPath {
            check(facts.uinputWritable, facts.uinputWritable ? "\(path) is writable" : "\(path) is not writable by this user",
                  "run as root, or give your user access (`sudo setfacl -m u:$USER:rw \(path)`, or a udev rule for group input)")
        } else {
            check(false, "no uinput device (/dev/uinput)",
                  facts.uinputModuleAvailable
                    ? "load it: `sudo modprobe uinput`"
                    : "this kernel (\(facts.kernelRelease)) has no uinput (CONFIG_INPUT_UINPUT); use the vm rig (`--rig vm`)")
        }
    }

    private static func versionCheck(_ facts: HostFacts, _ check: (Bool, String, @autoclosure () -> String) -> Void) {
        guard let text = facts.bluetoothdVersion else { return }
        let parts = text.split(separator: ".").compactMap { Int($0) }
        let recent = parts.lexicographicallyPrecedes(minimumBlueZ) == false
        let minimum = minimumBlueZ.map(String.init).joined(separator: ".")
        check(recent, "BlueZ \(text)" + (recent ? "" : " is older than \(minimum)"), "install BlueZ \(minimum) or later")
    }
}

/// Picks the rig for `--rig auto`, or checks the one asked for, and says why.
package enum RigSelector {
    /// Preference order for `auto`: real radios first, then a local virtual rig, then the vm.
    package static let preference: [RigDefinition.Kind] = [.hardware, .virtual, .vm]

    /// - Returns: the rig and a sentence saying why it was picked.
    /// - Throws: `RigError` when the named rig is unknown or cannot run here, or no rig can run.
    package static func choose(_ requested: String, from catalog: RigCatalog, facts: HostFacts)
        throws(RigError) -> (rig: RigDefinition, reason: String)
    {
        if requested != "auto" {
            let rig = try catalog.rig(named: requested)
            let assessment = RigAssessment(rig: rig, facts: facts, rigsDirectory: catalog.directory)
            guard assessment.canRun else {
                let first = assessment.failures[0]
                throw RigError(
                    .noRunnableRig, "rig \(rig.name) cannot run here: \(first.finding)",
                    hint: (first.fix ?? "") + " (`hil doctor` lists every check)")
            }
            return (rig, "rig \(rig.name) (asked for)")
        }
        // Rigs that cannot run for the same reason are named together, the reason once.
        var skipped: [(rigs: [String], why: String)] = []
        func why() -> String {
            skipped.map { "not \($0.rigs.joined(separator: " or ")): \($0.why)" }.joined(separator: "; ")
        }
        for kind in preference {
            for rig in catalog.rigs where rig.kind == kind {
                let assessment = RigAssessment(rig: rig, facts: facts, rigsDirectory: catalog.directory)
                if assessment.canRun {
                    return (rig, "rig \(rig.name) (auto: \(rig.name) can run here\(skipped.isEmpty ? "" : "; " + why()))")
                }
                let finding = assessment.failures[0].finding
                if let same = skipped.firstIndex(where: { $0.why == finding }) {
                    skipped[same].rigs.append(rig.name)
                } else {
                    skipped.append(([rig.name], finding))
                }
            }
        }
        throw RigError(.noRunnableRig, "no rig can run here: " + why(), hint: "run `hil doctor` for every check and what to do")
    }
}
