import Foundation
import Processes
import Rig
import RigControl
import Testing

/// A fake filesystem root with just the files the probe reads.
struct FixtureRoot {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hil-root-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try write("proc/sys/kernel/osrelease", "6.1.0-test-amd64\n")
    }

    func write(_ relative: String, _ text: String = "") throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    func folder(_ relative: String) throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent(relative), withIntermediateDirectories: true)
    }

    func executable(_ relative: String) throws {
        try write(relative, "#!/bin/sh\n")
        chmod(url.appendingPathComponent(relative).path, 0o755)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite("Host probe, rig checks and automatic choice")
struct HostProbeTests {
    let catalog: RigCatalog

    init() throws {
        catalog = try RigCatalog(directory: rigsFolder)
    }

    @Test("a host like ours (no Bluetooth, no uinput, qemu and BlueZ installed) gets the vm rig, with reasons")
    func bareHost() throws {
        let root = try FixtureRoot()
        defer { root.remove() }
        for tool in ["qemu-system-x86_64", "btvirt", "bluetoothctl", "dbus-daemon", "cpio", "depmod", "apt-get", "dpkg-deb"] {
            try root.executable("usr/bin/\(tool)")
        }
        try root.executable("usr/sbin/bluetoothd")
        let facts = HostFacts.probe(root: root.url.path, path: "/usr/bin")
        #expect(facts.kernelRelease == "6.1.0-test-amd64")
        #expect(!facts.kernelBluetooth && facts.uinputPath == nil && !facts.vhci)

        let noBluetooth = "this kernel (6.1.0-test-amd64) has no Bluetooth (CONFIG_BT)"
        let hardware = RigAssessment(rig: try catalog.rig(named: "hardware"), facts: facts)
        #expect(!hardware.canRun)
        #expect(hardware.failures.first?.finding == noBluetooth)
        #expect(hardware.failures.first?.fix?.hasSuffix("use the vm rig (`--rig vm`), which boots its own kernel") == true)
        let virtual = RigAssessment(rig: try catalog.rig(named: "virtual"), facts: facts)
        #expect(virtual.failures.contains { $0.finding == "no uinput device (/dev/uinput)" })

        let (rig, reason) = try RigSelector.choose("auto", from: catalog, facts: facts)
        #expect(rig.name == "vm")
        // The rigs that cannot run for one reason are named together, the reason once.
        #expect(reason == "rig vm (auto: vm can run here; not hardware or virtual: \(noBluetooth))")
    }

    @Test("a kernel with no Bluetooth at all: said once, with the vm rig as the way out; no advice about adapters, hci_vhci or bluetoothd that cannot work on it",
          arguments: ["hardware", "virtual"])
    func kernelWithoutBluetooth(_ name: String) throws {
        let root = try FixtureRoot()
        defer { root.remove() }
        try root.write("dev/uinput")
        var facts = HostFacts.probe(root: root.url.path, path: "")
        facts.uinputWritable = true
        facts.bluetoothdVersion = "5.66"
        facts.isRoot = true
        let assessment = RigAssessment(rig: try catalog.rig(named: name), facts: facts)
        let failures = assessment.failures
        if name == "hardware" { #expect(failures.count == 1, "\(failures.map(\.finding))") }  // virtual: also its tools
        #expect(failures.first?.finding.contains("has no Bluetooth (CONFIG_BT)") == true)
        #expect(failures.first?.fix?.contains("--rig vm") == true)
        let text = assessment.checks.map { "\($0.finding) \($0.fix ?? "")" }.joined(separator: "\n")
        for advice in ["(no adapters)", "systemctl", "peripheralAdapter", "hci_vhci is not loaded", "modprobe"] {
            #expect(!text.contains(advice), "\(name): \(advice) in\n\(text)")
        }
    }

    /// A box with Bluetooth loaded, these adapters (no device behind them), bluetoothd 5.66 running and a writable
    /// /dev/uinput, seen as root.
    static func box(_ root: FixtureRoot, adapters: [String]) throws -> HostFacts {
        try root.folder("sys/class/bluetooth")
        for adapter in adapters { try root.folder("sys/class/bluetooth/\(adapter)") }
        try root.write("dev/uinput")
        try root.write("proc/4242/comm", "bluetoothd\n")
        var facts = HostFacts.probe(root: root.url.path, path: "")
        facts.uinputWritable = true
        facts.bluetoothdVersion = "5.66"
        facts.isRoot = true
        return facts
    }

    @Test("Bluetooth loaded but no adapter: plug in two; no rig-file name to choose from an empty list")
    func noAdapters() throws {
        let root = try FixtureRoot()
        defer { root.remove() }
        let facts = try Self.box(root, adapters: [])
        let hardware = RigAssessment(rig: try catalog.rig(named: "hardware"), facts: facts)
        #expect(hardware.failures.map(\.finding) == ["0 hardware adapter(s)"])
        #expect(hardware.failures.first?.fix?.contains("plug in two USB Bluetooth adapters") == true)
        try root.folder("sys/class/bluetooth/hci3/device")
        let one = RigAssessment(rig: try catalog.rig(named: "hardware"), facts: HostFacts.probe(root: root.url.path, path: ""))
        #expect(one.failures.contains { $0.fix == "set \"peripheralAdapter\" in hardware.json to one of: hci3" })
    }

    @Test("modules on disk but not loaded: the fix is modprobe")
    func modulesAvailable() throws {
        let root = try FixtureRoot()
        defer { root.remove() }
        try root.write("lib/modules/6.1.0-test-amd64/kernel/net/bluetooth/bluetooth.ko.xz")
        try root.write("lib/modules/6.1.0-test-amd64/kernel/drivers/input/misc/uinput.ko.xz")
        let facts = HostFacts.probe(root: root.url.path, path: "")
        let virtual = RigAssessment(rig: try catalog.rig(named: "virtual"), facts: facts)
        #expect(virtual.failures.contains { $0.fix == "load it: `sudo modprobe bluetooth`" })
        #expect(virtual.failures.contains { $0.fix == "load it: `sudo modprobe uinput`" })
    }

    @Test("qemu missing: vm cannot run, and the fix is the set-up script by its absolute path, so it works from any folder")
    func noQemu() throws {
        let root = try FixtureRoot()
        defer { root.remove() }
        let facts = HostFacts.probe(root: root.url.path, path: "/usr/bin")
        let vm = RigAssessment(rig: try catalog.rig(named: "vm"), facts: facts, rigsDirectory: catalog.directory)
        #expect(!vm.canRun)
        #expect(vm.failures.first?.finding == "qemu-system-x86_64 not found (runs the guest; package qemu-system-x86)")
        let script = URL(fileURLWithPath: rigsFolder).standardizedFileURL.appendingPathComponent("setup.sh").path
        #expect(script.hasPrefix("/") && FileManager.default.fileExists(atPath: script))
        #expect(vm.failures.first?.fix == "run `bash \(script)` (installs the Debian packages)")
        #expect(throws: RigError.self) { try RigSelector.choose("auto", from: catalog, facts: facts) }
        do {
            _ = try RigSelector.choose("vm", from: catalog, facts: facts)
        } catch {
            #expect(error.what == "rig vm cannot run here: qemu-system-x86_64 not found (runs the guest; package qemu-system-x86)")
        }
    }

    @Test("a kernel with hci_vhci and uinput gets the virtual rig")
    func virtualHost() throws {
        let facts = HostFacts(
            kernelRelease: "6.1", kernelBluetooth: true, bluetoothModuleAvailable: true, adapters: [], vhci: true,
            vhciModuleAvailable: true, uinputPath: "/dev/uinput", uinputWritable: true, uinputModuleAvailable: true,
            bluetoothdRunning: false, bluetoothdVersion: "5.66",
            tools: Dictionary(uniqueKeysWithValues: HostFacts.toolNames.map { ($0, "/usr/bin/\($0)") }), isRoot: true)
        let (rig, reason) = try RigSelector.choose("auto", from: catalog, facts: facts)
        #expect(rig.name == "virtual")
        #expect(reason.contains("not hardware: 0 hardware adapter(s)"))
    }

    @Test("a hardware box without root needs group hil, the D-Bus policy, the udev rule and the polkit rule; each missing one is named with the fix")
    func withoutRoot() throws {
        let root = try FixtureRoot()
        defer { root.remove() }
        try root.folder("sys/class/bluetooth/hci0/device")
        try root.folder("sys/class/bluetooth/hci1/device")
        try root.write("dev/uinput")
        try root.write("proc/4242/comm", "bluetoothd\n")
        let me = String(cString: getpwuid(getuid())!.pointee.pw_name)
        try root.write("etc/group", "root:x:0:\nhil:x:64999:nobody,\(me)\n")
        try root.write(HostFacts.udevRuleFile, "# rule\n")
        try root.write(HostFacts.polkitRuleFile, "// rule\n")
        var facts = HostFacts.probe(root: root.url.path, path: "")
        #expect(facts.withoutRoot.inGroup)
        #expect(facts.withoutRoot.udevRule)
        #expect(facts.withoutRoot.polkitRule)
        #expect(!facts.withoutRoot.dbusPolicy)
        facts.isRoot = false
        facts.uinputWritable = true
        facts.bluetoothdVersion = "5.66"
        let hardware = RigAssessment(rig: try catalog.rig(named: "hardware"), facts: facts)
        #expect(hardware.failures.map(\.finding) == ["D-Bus policy /etc/dbus-1/system.d/org.remotetouch.hil.conf missing"])
        #expect(hardware.failures.first?.fix?.contains("sudo bash Rigs/hardware/install.sh") == true)
        try root.write(HostFacts.dbusPolicyFile, "<busconfig/>\n")
        try root.write("etc/group", "hil:x:64999:nobody\n")
        facts = HostFacts.probe(root: root.url.path, path: "")
        facts.isRoot = false
        facts.uinputWritable = true
        facts.bluetoothdVersion = "5.66"
        #expect(RigAssessment(rig: try catalog.rig(named: "hardware"), facts: facts).failures.map(\.finding)
            == (getgid() == 64999 ? [] : ["this user is not in group hil"]))
        facts.withoutRoot.polkitRule = false
        #expect(RigAssessment(rig: try catalog.rig(named: "hardware"), facts: facts).failures.map(\.finding).last
            == "polkit rule /etc/polkit-1/rules.d/50-remotetouch-hil.rules missing (the restartBluetoothd fault step restarts bluetooth.service)")
        // As root none of it is asked for.
        facts.isRoot = true
        #expect(RigAssessment(rig: try catalog.rig(named: "hardware"), facts: facts).canRun)
    }

    @Test("the files for a box without root are well-formed: D-Bus policy XML, udev rule, systemd units, scripts")
    func boxFiles() throws {
        let folder = rigsFolder + "/hardware"
        let policy = try String(contentsOfFile: folder + "/dbus/org.remotetouch.hil.conf", encoding: .utf8)
        // Well-formed XML, by Python's parser (as dbus-daemon would refuse a broken file at reload).
        let parse = try ChildProcess.runBlocking(
            "/usr/bin/python3", arguments: ["-c", "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])",
                                            folder + "/dbus/org.remotetouch.hil.conf"],
            errors: .joined, timeout: .seconds(60))
        #expect(parse.succeeded, "the D-Bus policy is not well-formed XML: \(parse.standardOutput)")
        #expect(policy.contains(#"<policy group="hil">"#) && policy.contains(#"<allow own="org.remotetouch.HIL"/>"#))
        let rules = try String(contentsOfFile: folder + "/udev/60-remotetouch-hil.rules", encoding: .utf8)
        #expect(rules.contains(#"KERNEL=="uinput""#) && rules.contains(#"ATTRS{name}=="RemoteTouch HIL Virtual Input""#))
        for line in rules.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.contains("==") && line.contains("GROUP=\"hil\""), "udev rule line: \(line)")
        }
        let service = try String(contentsOfFile: folder + "/systemd/hil-nightly.service", encoding: .utf8)
        #expect(service.contains("User=hil") && service.contains("UMask=0077") && service.contains("[Service]"))
        let timer = try String(contentsOfFile: folder + "/systemd/hil-nightly.timer", encoding: .utf8)
        #expect(timer.contains("OnCalendar="))
        // The polkit rule: JavaScript that grants only the restart of bluetooth.service, only to group hil.
        let polkit = try String(contentsOfFile: folder + "/polkit/50-remotetouch-hil.rules", encoding: .utf8)
        for part in [#"action.id == "org.freedesktop.systemd1.manage-units""#, #"action.lookup("unit") == "bluetooth.service""#,
                     #"action.lookup("verb") == "restart""#, #"subject.isInGroup("hil")"#, "polkit.Result.YES"] {
            #expect(polkit.contains(part), "polkit rule: \(part)")
        }
        #expect(polkit.filter { $0 == "{" }.count == polkit.filter { $0 == "}" }.count)
        #expect(polkit.filter { $0 == "(" }.count == polkit.filter { $0 == ")" }.count)
        for script in ["install.sh", "nightly.sh"] {
            let check = try ChildProcess.runBlocking("/bin/bash", arguments: ["-n", folder + "/" + script], errors: .joined,
                                                     timeout: .seconds(60))
            #expect(check.succeeded, "bash -n \(script): \(check.standardOutput)")
        }
    }

    @Test("a hardware rig file with virtualAdapters takes a guest's btvirt controllers as the box's adapters; without it they do not count")
    func rehearsalAdapters() throws {
        let root = try FixtureRoot()
        defer { root.remove() }
        // btvirt's controllers: adapters with no device behind them.
        let facts = try Self.box(root, adapters: ["hci0", "hci1"])
        var rig = try catalog.rig(named: "hardware")
        #expect(RigAssessment(rig: rig, facts: facts).failures.map(\.finding) == ["0 hardware adapter(s)"])
        rig.virtualAdapters = true
        let rehearsal = RigAssessment(rig: rig, facts: facts)
        #expect(rehearsal.failures.isEmpty, "\(rehearsal.failures.map(\.finding))")
        #expect(rehearsal.checks.contains { $0.finding == "2 adapter(s) (hci0, hci1)" })
    }

    @Test("two hardware adapters with bluetoothd running get the hardware rig; an old BlueZ does not")
    func hardwareHost() throws {
        let root = try FixtureRoot()
        defer { root.remove() }
        try root.folder("sys/class/bluetooth/hci0/device")
        try root.folder("sys/class/bluetooth/hci1/device")
        try root.folder("sys/class/bluetooth/hci2")  // a vhci adapter: no device
        try root.write("dev/uinput")
        try root.write("proc/4242/comm", "bluetoothd\n")
        var facts = HostFacts.probe(root: root.url.path, path: "")
        #expect(facts.adapters.map(\.name) == ["hci0", "hci1", "hci2"])
        #expect(facts.hardwareAdapters.map(\.name) == ["hci0", "hci1"])
        #expect(facts.bluetoothdRunning)
        facts.uinputWritable = true
        facts.bluetoothdVersion = "5.66"
        #expect(try RigSelector.choose("auto", from: catalog, facts: facts).rig.name == "hardware")
        facts.bluetoothdVersion = "5.43"
        let hardware = RigAssessment(rig: try catalog.rig(named: "hardware"), facts: facts)
        #expect(hardware.failures.map(\.finding) == ["BlueZ 5.43 is older than 5.50"])
        facts.bluetoothdVersion = "5.66"
        facts.uinputWritable = false
        #expect(RigAssessment(rig: try catalog.rig(named: "hardware"), facts: facts).failures.map(\.fix)
            == ["run as root, or give your user access (`sudo setfacl -m u:$USER:rw \(facts.uinputPath!)`, or a udev rule for group input)"])
    }
}
