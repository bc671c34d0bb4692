import Foundation
import Processes

/// What this machine offers the rigs, read from /sys, /dev, /proc and PATH. `root` lets tests point the
/// probe at a fixture tree instead of `/`.
package struct HostFacts: Sendable, Hashable {
    package struct Adapter: Sendable, Hashable {
        package var name: String
        /// Backed by a bus device (USB, UART, PCI); vhci adapters have no device.
        package var isHardware: Bool
    }

    package var kernelRelease: String
    /// /sys/class/bluetooth exists: the kernel has Bluetooth and it is loaded.
    package var kernelBluetooth: Bool
    /// The Bluetooth module is on disk, not loaded (modprobe bluetooth would load it).
    package var bluetoothModuleAvailable: Bool
    package var adapters: [Adapter]
    /// /dev/vhci exists: hci_vhci is loaded, btvirt can make controllers.
    package var vhci: Bool
    package var vhciModuleAvailable: Bool
    /// The uinput device node, if any.
    package var uinputPath: String?
    package var uinputWritable: Bool
    package var uinputModuleAvailable: Bool
    package var bluetoothdRunning: Bool
    /// `bluetoothd --version`, if bluetoothd is installed.
    package var bluetoothdVersion: String?
    /// Paths of the programs the rigs use, by name; absent when not found.
    package var tools: [String: String]
    package var isRoot: Bool
    /// What a box needs to run the hardware rig without root (Rigs/hardware/install.sh).
    package var withoutRoot = WithoutRoot()
    /// The kernel's KVM, which the vm rig does not use (it runs under TCG: `hil doctor` says why).
    package var kvm = KVM.none

    /// What /dev/kvm is on this kernel.
    package enum KVM: Sendable, Hashable {
        /// No /dev/kvm.
        case none
        /// PVM's (kvm_pvm loaded): its guests must run a PVM-enabled kernel; no stock kernel boots under it.
        case pvm
        /// The hardware's (kvm_intel or kvm_amd).
        case hardware
    }

    package struct WithoutRoot: Sendable, Hashable {
        /// /etc/dbus-1/system.d/org.remotetouch.hil.conf
        package var dbusPolicy = false
        /// /etc/udev/rules.d/60-remotetouch-hil.rules
        package var udevRule = false
        /// /etc/polkit-1/rules.d/50-remotetouch-hil.rules (group hil may restart bluetooth.service).
        package var polkitRule = false
        /// This user is in group hil.
        package var inGroup = false
        package init() {}
    }

    package static let dbusPolicyFile = "etc/dbus-1/system.d/org.remotetouch.hil.conf"
    package static let udevRuleFile = "etc/udev/rules.d/60-remotetouch-hil.rules"
    package static let polkitRuleFile = "etc/polkit-1/rules.d/50-remotetouch-hil.rules"

    package var hardwareAdapters: [Adapter] { adapters.filter(\.isHardware) }

    package static let toolNames = [
        "qemu-system-x86_64", "btvirt", "bluetoothd", "bluetoothctl", "dbus-daemon", "cpio", "depmod", "apt-get",
        "dpkg-deb",
    ]

    package init(kernelRelease: String, kernelBluetooth: Bool, bluetoothModuleAvailable: Bool, adapters: [Adapter],
                vhci: Bool, vhciModuleAvailable: Bool, uinputPath: String?, uinputWritable: Bool,
                uinputModuleAvailable: Bool, bluetoothdRunning: Bool, bluetoothdVersion: String?,
                tools: [String: String], isRoot: Bool)
    {
        self.kernelRelease = kernelRelease
        self.kernelBluetooth = kernelBluetooth
        self.bluetoothModuleAvailable = bluetoothModuleAvailable
        self.adapters = adapters
        self.vhci = vhci
        self.vhciModuleAvailable = vhciModuleAvailable
        self.uinputPath = uinputPath
        self.uinputWritable = uinputWritable
        self.uinputModuleAvailable = uinputModuleAvailable
        self.bluetoothdRunning = bluetoothdRunning
        self.bluetoothdVersion = bluetoothdVersion
        self.tools = tools
        self.isRoot = isRoot
    }

    /// Reads the facts of the machine (or of the fixture tree at `root`).
    package static func probe(root: String = "/", path: String? = nil) -> HostFacts {
        let path = path ?? ProcessInfo.processInfo.environment["PATH"]
        let manager = FileManager.default
        func at(_ relative: String) -> String { (root as NSString).appendingPathComponent(relative) }
        func exists(_ relative: String) -> Bool { manager.fileExists(atPath: at(relative)) }

        let release = (try? String(contentsOfFile: at("proc/sys/kernel/osrelease"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
        let modules = "lib/modules/\(release)"
        func moduleOnDisk(_ relative: String) -> Bool {
            [".ko", ".ko.xz", ".ko.zst", ".ko.gz"].contains { exists("\(modules)/\(relative)\($0)") }
        }

        var adapters: [Adapter] = []
        if let names = try? manager.contentsOfDirectory(atPath: at("sys/class/bluetooth")) {
            for name in names.sorted() where name.hasPrefix("hci") && !name.contains(":") {
                adapters.append(Adapter(name: name, isHardware: exists("sys/class/bluetooth/\(name)/device")))
            }
        }

        let uinput = ["dev/uinput", "dev/input/uinput"].first(where: exists).map(at)
        let writable = uinput.map { access($0, R_OK | W_OK) == 0 } ?? false

        let running = !ProcessTable.pids(named: "bluetoothd", root: root).isEmpty

        var tools: [String: String] = [:]
        let searchPath = (path ?? "") + ":/usr/libexec/bluetooth:/usr/sbin:/sbin"
        for tool in toolNames {
            for folder in searchPath.split(separator: ":") {
                let candidate = (String(folder) as NSString).appendingPathComponent(tool)
                if manager.isExecutableFile(atPath: root == "/" ? candidate : at(candidate)) {
                    tools[tool] = candidate
                    break
                }
            }
        }

        var withoutRoot = WithoutRoot()
        withoutRoot.dbusPolicy = exists(dbusPolicyFile) || exists("usr/share/dbus-1/system.d/org.remotetouch.hil.conf")
        withoutRoot.udevRule = exists(udevRuleFile) || exists("lib/udev/rules.d/60-remotetouch-hil.rules")
        withoutRoot.polkitRule = exists(polkitRuleFile) || exists("usr/share/polkit-1/rules.d/50-remotetouch-hil.rules")
        // Group hil's members (etc/group), against this user's name and groups.
        if let groups = try? String(contentsOfFile: at("etc/group"), encoding: .utf8),
           let line = groups.split(separator: "\n").first(where: { $0.hasPrefix("hil:") })
        {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            let members = fields.count > 3 ? fields[3].split(separator: ",").map(String.init) : []
            let gid = fields.count > 2 ? gid_t(fields[2]) : nil
            let user = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) }
            var ids = [gid_t](repeating: 0, count: Int(getgroups(0, nil)))
            let count = getgroups(Int32(ids.count), &ids)
            withoutRoot.inGroup = user.map(members.contains) == true
                || gid.map { gid in getgid() == gid || ids.prefix(Int(max(0, count))).contains(gid) } == true
        }
        var facts = HostFacts(
            kernelRelease: release, kernelBluetooth: exists("sys/class/bluetooth"),
            bluetoothModuleAvailable: moduleOnDisk("kernel/net/bluetooth/bluetooth"), adapters: adapters,
            vhci: exists("dev/vhci"), vhciModuleAvailable: moduleOnDisk("kernel/drivers/bluetooth/hci_vhci"),
            uinputPath: uinput, uinputWritable: writable,
            uinputModuleAvailable: moduleOnDisk("kernel/drivers/input/misc/uinput"), bluetoothdRunning: running,
            bluetoothdVersion: tools["bluetoothd"].flatMap { root == "/" ? Self.version(of: $0) : nil },
            tools: tools, isRoot: getuid() == 0)
        facts.withoutRoot = withoutRoot
        facts.kvm = !exists("dev/kvm") ? .none : exists("sys/module/kvm_pvm") ? .pvm : .hardware
        return facts
    }

    private static func version(of tool: String) -> String? {
        // Its standard error stays ours, as before; a tool that does not answer in 5 s has no version to report.
        guard let run = try? ChildProcess.runBlocking(tool, arguments: ["--version"], errors: .inherited, timeout: .seconds(5))
        else { return nil }
        let text = run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
