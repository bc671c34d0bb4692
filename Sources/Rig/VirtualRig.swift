package import RigControl
import Foundation
package import Processes
import System

/// Brings the virtual rig up on a kernel with hci_vhci and uinput, and down again: `btvirt -L -l2` makes two
/// LE controllers joined by an emulated link; with `"bluetoothd": "private"` the rig also starts its own
/// system bus (at a private address) and bluetoothd, so nothing of the host's is touched.
///
/// btvirt takes the next free adapter numbers, so the adapters used are the two it created, whatever the rig
/// file names; `environment` tells the job which (`HIL_PERIPHERAL_ADAPTER`, `HIL_CENTRAL_ADAPTER`).
package final class VirtualRig {
    package let rig: RigDefinition
    /// Logs of the rig's daemons (dbus.log, btvirt.log, bluetoothd.log).
    package let logDirectory: String
    /// What a job needs to use the rig: `HIL_RIG`, the two adapters, and `DBUS_SYSTEM_BUS_ADDRESS` when private
    /// (set by `start()`).
    package private(set) var environment = RigEnvironment()

    /// How each daemon is stopped.
    package static let stopSteps: [TeardownStep] = [.signal(SIGTERM), .wait(.seconds(3)), .kill]

    private let facts: HostFacts
    private var children: [(name: String, process: ChildProcess)] = []

    package init(rig: RigDefinition, facts: HostFacts) throws(RigError) {
        precondition(rig.kind == .virtual, "VirtualRig runs virtual rigs")
        self.rig = rig
        self.facts = facts
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("hil-virtual.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RigError(.boot, "cannot create a folder under \(NSTemporaryDirectory()): \(Errno.current)")
        }
        logDirectory = String(cString: made)
    }

    deinit {
        stop()
    }

    /// Starts the daemons and waits until both new adapters are powered.
    /// - Throws: `RigError` naming the step that failed, with the last lines of its log.
    package func start(timeout: Duration = .seconds(30)) throws(RigError) {
        var daemonEnvironment = ProcessInfo.processInfo.environment
        if rig.bluetoothd == .private {
            guard !facts.bluetoothdRunning else {
                throw RigError(
                    .notReady, "rig \(rig.name) starts its own bluetoothd, but one is already running and would take the virtual controllers too",
                    hint: "stop it (`sudo systemctl stop bluetooth`), or set \"bluetoothd\": \"system\" in \(rig.name).json")
            }
            let socket = (logDirectory as NSString).appendingPathComponent("system_bus_socket")
            try launch("dbus", tool("dbus-daemon"), ["--system", "--nofork", "--nopidfile", "--address=unix:path=\(socket)"])
            try waitFor("the private system bus at \(socket)", timeout: .seconds(10)) {
                FileManager.default.fileExists(atPath: socket)
            }
            daemonEnvironment[RigEnvironment.systemBusVariable] = "unix:path=\(socket)"
            environment.systemBusAddress = "unix:path=\(socket)"
        }
        let before = Set(Self.adapters())
        try launch("btvirt", tool("btvirt"), ["-L", "-l2"])
        if rig.bluetoothd == .private {
            // The rig file's connection parameters, in a main.conf of its own beside the logs.
            let mainConf = (logDirectory as NSString).appendingPathComponent("main.conf")
            try rig.writeBluetoothdMainConf(to: mainConf)
            try launch("bluetoothd", tool("bluetoothd"), ["-n", "-f", mainConf], environment: daemonEnvironment)
        }
        var created: [String] = []
        try waitFor("two new controllers from btvirt in /sys/class/bluetooth", timeout: timeout) {
            created = Self.adapters().filter { !before.contains($0) }
            return created.count >= 2
        }
        created.sort { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
        let (peripheral, central) = (created[0], created[1])
        try waitFor("\(peripheral) and \(central) powered (org.bluez.Adapter1.Powered)", timeout: timeout) {
            [peripheral, central].allSatisfy { self.powered($0, environment: daemonEnvironment) }
        }
        environment.rig = rig.kind.rawValue
        environment.peripheralAdapter = peripheral
        environment.centralAdapter = central
    }

    /// Stops the daemons (bluetoothd, btvirt — which removes its controllers — then the bus). Idempotent.
    package func stop() {
        // A restartBluetoothd step started the private bluetoothd again, not as this rig's child: stop every
        // bluetoothd on this rig's private bus first.
        if let bus = environment.systemBusAddress {
            for pid in ProcessTable.pids(named: "bluetoothd")
            where ProcessTable.fields("environ", of: pid).contains("\(RigEnvironment.systemBusVariable)=" + bus)
                && !children.contains(where: { $0.process.pid == pid }) {
                RunningProcess(pid: pid).signal(SIGTERM)
            }
        }
        // In reverse order of start, each gone before the next is stopped.
        for (_, process) in children.reversed() {
            process.teardownBlocking(Self.stopSteps)
        }
        children.removeAll()
    }

    private func tool(_ name: String) throws(RigError) -> String {
        guard let path = facts.tools[name] else {
            throw RigError(.missingTool, "\(name) not found", hint: "run `bash \(RigAssessment.setupScript(rigsDirectory: nil))`")
        }
        return path
    }

    private func launch(_ name: String, _ executable: String, _ arguments: [String],
                        environment: [String: String]? = nil) throws(RigError)
    {
        let log = (logDirectory as NSString).appendingPathComponent("\(name).log")
        do throws(SystemError) {
            let process = try ChildProcess(executable, arguments, environment: environment, output: .file(log), ownProcessGroup: true)
            children.append((name, process))
        } catch {
            throw RigError(error, code: .boot)
        }
    }

    /// Polls `condition` every 50 ms; fails when a daemon died or the time is up. (The conditions are sysfs and
    /// D-Bus state, which nothing announces; a daemon's death is read from its monitor, not polled for.)
    private func waitFor(_ what: String, timeout: Duration, _ condition: () -> Bool) throws(RigError) {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            for (name, process) in children {
                if let status = process.poll() {
                    throw RigError(.notReady, "\(name) exited with status \(status) while waiting for \(what)\n\(tail(name))",
                                   hint: "its log: \(logDirectory)/\(name).log")
                }
            }
            if ContinuousClock.now > deadline {
                throw RigError(.notReady, "no \(what) after \(timeout)\n" + children.map { tail($0.name) }.joined(separator: "\n"),
                               hint: "logs in \(logDirectory)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Asks bluetoothd whether `adapter` is powered, and powers it on when it is not.
    private func powered(_ adapter: String, environment: [String: String]) -> Bool {
        guard let dbusSend = ChildProcess.resolve("dbus-send") else { return false }
        let common = ["--system", "--print-reply=literal", "--reply-timeout=2000", "--dest=org.bluez", "/org/bluez/\(adapter)"]
        let reply = run(dbusSend, common + ["org.freedesktop.DBus.Properties.Get", "string:org.bluez.Adapter1", "string:Powered"],
                        environment: environment)
        if reply.hasSuffix("true") { return true }
        if reply.hasSuffix("false") {
            _ = run(dbusSend, common + ["org.freedesktop.DBus.Properties.Set", "string:org.bluez.Adapter1", "string:Powered",
                                        "variant:boolean:true"], environment: environment)
        }
        return false
    }

    /// What a short command printed (stdout and stderr together); empty when it could not run or did not answer in
    /// 5 s (dbus-send gives up after its own 2 s).
    private func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> String {
        let run = try? ChildProcess.runBlocking(executable, arguments: arguments, environment: environment, errors: .joined,
                                                timeout: .seconds(5))
        return run?.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    private func tail(_ name: String) -> String {
        let text = (try? String(contentsOfFile: "\(logDirectory)/\(name).log", encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").suffix(8).map { "  | \($0)" }
        return "last lines of \(name).log:\n" + (lines.isEmpty ? "  | (empty)" : lines.joined(separator: "\n"))
    }

    static func adapters() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/bluetooth")) ?? [])
            .filter { $0.hasPrefix("hci") && !$0.contains(":") }
    }
}
