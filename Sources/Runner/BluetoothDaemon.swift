import Foundation
import Rig

/// The bluetoothd serving the rig's adapters, for the `restartBluetoothd` fault step: where systemd runs it
/// (bluetooth.service, a hardware box) it is restarted through systemctl; otherwise (the vm and virtual rigs'
/// private daemon) it is stopped with SIGTERM and started again exactly as it was: the same executable,
/// arguments and environment, its output appended to the same log.
struct BluetoothDaemon {
    let pid: Int32
    let executable: String
    let arguments: [String]
    let environment: [String: String]
    /// Where its standard output went, when that is a file (the rig's bluetoothd.log).
    let logPath: String?
    let underSystemd: Bool

    /// The running bluetoothd.
    /// - Throws: `RunnerError` when none runs, or more than one does (the step would not know which to restart).
    static func running() throws(RunnerError) -> BluetoothDaemon {
        let pids = ProcessTable.pids(named: "bluetoothd").filter { !isZombie($0) }
        guard pids.count == 1, let pid = pids.first else {
            throw RunnerError(pids.isEmpty
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
            throw RunnerError("restartBluetoothd: cannot read bluetoothd's command line (pid \(pid), /proc/\(pid)/exe): the step needs root where systemd does not run bluetoothd")
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

    /// Stops it and starts it again; returns when the new daemon was started (not yet when it is on the bus).
    /// - Throws: `RunnerError` when it does not stop within 5 s of SIGTERM and SIGKILL, or cannot be started.
    func restart() async throws(RunnerError) {
        if underSystemd {
            let systemctl = Process()
            systemctl.executableURL = URL(fileURLWithPath: "/usr/bin/systemctl")
            systemctl.arguments = ["restart", "bluetooth.service"]
            do { try systemctl.run() } catch { throw RunnerError("restartBluetoothd: cannot run systemctl: \(error)") }
            systemctl.waitUntilExit()
            guard systemctl.terminationStatus == 0 else {
                throw RunnerError("restartBluetoothd: `systemctl restart bluetooth.service` exited \(systemctl.terminationStatus): it needs root, or the polkit rule for group hil (Rigs/hardware/install.sh)")
            }
            return
        }
        guard kill(pid, SIGTERM) == 0 else {
            throw RunnerError("restartBluetoothd: cannot signal bluetoothd (pid \(pid)): \(String(cString: strerror(errno))); the step needs root")
        }
        var deadline = ContinuousClock.now + .seconds(5)
        while Self.alive(pid) {
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                deadline = ContinuousClock.now + .seconds(5)
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        if let logPath, let log = FileHandle(forWritingAtPath: logPath) {
            log.seekToEndOfFile()
            log.write(Data("--- hil: bluetoothd restarted by the restartBluetoothd step ---\n".utf8))
            process.standardOutput = log
            process.standardError = log
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        do { try process.run() } catch {
            throw RunnerError("restartBluetoothd: cannot start \(executable) again: \(error); the rig has no bluetoothd now")
        }
    }

    static func alive(_ pid: Int32) -> Bool { kill(pid, 0) == 0 && !isZombie(pid) }

    /// A process that exited but was not reaped yet (its parent is the rig's shell) still answers kill(pid, 0).
    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
