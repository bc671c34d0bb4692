import Foundation

/// What this machine offers the rigs, read from /sys, /dev, /proc and PATH. `root` lets tests point the
/// probe at a fixture tree instead of `/`.
public struct HostFacts: Sendable, Hashable {
    public struct Adapter: Sendable, Hashable {
        public var name: String
        /// Backed by a bus device (USB, UART, PCI); vhci adapters have no device.
        public var isHardware: Bool
    }

    public var kernelRelease: String
    /// /sys/class/bluetooth exists: the kernel has Bluetooth and it is loaded.
    public var kernelBluetooth: Bool
    /// The Bluetooth module is on disk, not loaded (modprobe bluetooth would load it).
    public var bluetoothModuleAvailable: Bool
    public var adapters: [Adapter]
    /// /dev/vhci exists: hci_vhci is loaded, btvirt can make controllers.
    public var vhci: Bool
    public var vhciModuleAvailable: Bool
    /// The uinput device node, if any.
    public var uinputPath: String?
    public var uinputWritable: Bool
    public var uinputModuleAvailable: Bool
    public var bluetoothdRunning: Bool
    /// `bluetoothd --version`, if bluetoothd is installed.
    public var bluetoothdVersion: String?
    /// Paths of the programs the rigs use, by name; absent when not found.
    public var tools: [String: String]
    public var isRoot: Bool

    public var hardwareAdapters: [Adapter] { adapters.filter(\.isHardware) }

    public static let toolNames = [
        "qemu-system-x86_64", "btvirt", "bluetoothd", "bluetoothctl", "dbus-daemon", "cpio", "depmod", "apt-get",
        "dpkg-deb",
    ]

    public init(kernelRelease: String, kernelBluetooth: Bool, bluetoothModuleAvailable: Bool, adapters: [Adapter],
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
    public static func probe(root: String = "/", path: String? = nil) -> HostFacts {
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

        var running = false
        if let pids = try? manager.contentsOfDirectory(atPath: at("proc")) {
            for pid in pids where pid.allSatisfy(\.isNumber) {
                let comm = try? String(contentsOfFile: at("proc/\(pid)/comm"), encoding: .utf8)
                if comm?.trimmingCharacters(in: .whitespacesAndNewlines) == "bluetoothd" {
                    running = true
                    break
                }
            }
        }

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

        return HostFacts(
            kernelRelease: release, kernelBluetooth: exists("sys/class/bluetooth"),
            bluetoothModuleAvailable: moduleOnDisk("kernel/net/bluetooth/bluetooth"), adapters: adapters,
            vhci: exists("dev/vhci"), vhciModuleAvailable: moduleOnDisk("kernel/drivers/bluetooth/hci_vhci"),
            uinputPath: uinput, uinputWritable: writable,
            uinputModuleAvailable: moduleOnDisk("kernel/drivers/input/misc/uinput"), bluetoothdRunning: running,
            bluetoothdVersion: tools["bluetoothd"].flatMap { root == "/" ? Self.version(of: $0) : nil },
            tools: tools, isRoot: getuid() == 0)
    }

    private static func version(of tool: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
