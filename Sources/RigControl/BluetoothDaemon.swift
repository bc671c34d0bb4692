import Foundation
package import Processes
import System

/// The bluetoothd serving the rig's adapters, for the `restartBluetoothd` fault step: where systemd runs it
/// (bluetooth.service, a hardware box) it is restarted through systemctl; otherwise (the vm and virtual rigs'
/// private daemon) it is stopped with SIGTERM and started again exactly as it was: the same executable,
/// arguments and environment, its output appended to the same log.
package struct BluetoothDaemon: Sendable {
    package let pid: Int32
    package let executable: String
    package let arguments: [String]
    package let environment: [String: String]
    /// Where its standard output went, when that is a file (the rig's bluetoothd.log).
    package let logPath: String?
    package let underSystemd: Bool
    /// How the old daemon is stopped before it is started again.
    package static let stopSteps: [TeardownStep] = [.signal(SIGTERM), .wait(.seconds(5)), .kill]

    /// The running bluetoothd.
    /// - Throws: `RigError` when none runs, or more than one does (the step would not know which to restart).
    package static func running() throws(RigError) -> BluetoothDaemon {
        let pids = ProcessTable.pids(named: "bluetoothd").filter { !RunningProcess.isZombie($0) }
        guard pids.count == 1, let pid = pids.first else {
            throw RigError(.fault, pids.isEmpty
                ? "restartBluetoothd: no bluetoothd is running"
                : "restartBluetoothd: \(pids.count) bluetoothd processes run (pids \(pids.map(String.init).joined(separator: ", "))); the step restarts one")
        }
        // Under systemd it is restarted by name (a polkit rule lets group hil: Rigs/hardware/polkit); nothing
        // else of it needs reading, and as another user nothing else could be.
        let cgroup = (try? String(contentsOfFile: "/proc/\(pid)/cgroup", encoding: .utf8)) ?? ""
        if cgroup.contains("bluetooth.service") && FileManager.default.fileExists(atPath: "/run/systemd/system") {
            return BluetoothDaemon(pid: pid, executable: "", arguments: [], environment: [:], logPath: nil, underSystemd: true)
        }
        let arguments = ProcessTable.fields("cmdline", of: pid)
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"), !arguments.isEmpty else {
            throw RigError(.fault, "restartBluetoothd: cannot read bluetoothd's command line (pid \(pid), /proc/\(pid)/exe): the step needs root where systemd does not run bluetoothd")
        }
        var environment: [String: String] = [:]
        for entry in ProcessTable.fields("environ", of: pid) {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        let output = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/1")
        return BluetoothDaemon(
            pid: pid, executable: executable, arguments: Array(arguments.dropFirst()), environment: environment,
            logPath: output.flatMap { $0.hasPrefix("/") && !$0.hasPrefix("/dev/") ? $0 : nil }, underSystemd: false)
    }

    /// Stops it (`stopSteps`) and starts it again; returns when the new daemon was started (not yet when it is on
    /// the bus). The new daemon is this process's child, in its own process group; the rig stops it with the rest.
    /// - Throws: `RigError` when it cannot be signalled or started again, or systemctl fails.
    package func restart() async throws(RigError) {
        if underSystemd {
            let systemctl: ChildProcess
            do {
                systemctl = try ChildProcess("/usr/bin/systemctl", ["restart", "bluetooth.service"], output: .inherit, ownProcessGroup: false)
            } catch {
                throw RigError(.fault, "restartBluetoothd: cannot run systemctl: \(error)", cause: error)
            }
            let ended = await systemctl.exitStatus()
            guard ended == .exited(0) else {
                throw RigError(.fault, "restartBluetoothd: `systemctl restart bluetooth.service` \(ended): it needs root, or the polkit rule for group hil (Rigs/hardware/install.sh)")
            }
            return
        }
        let old = RunningProcess(pid: pid)
        guard old.signal(0) else {
            throw RigError(.fault, "restartBluetoothd: cannot signal bluetoothd (pid \(pid)): \(Errno.current); the step needs root")
        }
        await old.teardown(Self.stopSteps)
        var output = ChildProcess.Output.file("/dev/null")
        if let logPath, let log = FileHandle(forWritingAtPath: logPath) {
            log.seekToEndOfFile()
            log.write(Data("--- hil: bluetoothd restarted by the restartBluetoothd step ---\n".utf8))
            try? log.close()
            output = .appending(logPath)
        }
        do {
            _ = try ChildProcess(executable, arguments, environment: environment, output: output, ownProcessGroup: true)
        } catch {
            throw RigError(.fault, "restartBluetoothd: cannot start \(executable) again: \(error.message); the rig has no bluetoothd now")
        }
    }
}
