import Foundation
import Synchronization

/// Peripherals under test that are running, so an interrupted run can stop them.
private let running = Mutex<Set<Int32>>([])

/// The device under test: `hil peripheral` as its own process, with a fresh state folder, so every scenario
/// starts clean (no pairings, no lockout).
public final class PeripheralUnderTest: @unchecked Sendable {
    // Safety: `process` is started in init and then only queried and signalled; `output` is immutable.
    let process = Process()
    let output: String
    let stateDirectory: String
    let codeFile: String
    /// Each command's receipt and uinput write times (`hil peripheral --receipts-log`).
    let receiptsFile: String

    /// - Throws: `RunnerError` when the process cannot start or does not register within `timeout`.
    /// - Parameters:
    ///   - lockoutSeconds: the pairing lockout after 3 wrong codes (the peripheral's default when nil).
    ///   - uinputPath: the uinput node to use (a denied one for R10); `expectRegistration: false` then
    ///     returns once the process was started, for the caller to wait for its refusal.
    ///   - generation: 2 and up for the computer started again within a scenario (a restartPeripheral step):
    ///     the same state folder, its own log and receipts (peripheral-2.out, receipts-2.log).
    init(hil: String, adapter: String, uinputName: String, folder: String, lockoutSeconds: Int? = nil,
         uinputPath: String? = nil, launcher: [String] = [], expectRegistration: Bool = true,
         timeout: Duration = .seconds(20), generation: Int = 1) throws(RunnerError)
    {
        let suffix = generation == 1 ? "" : "-\(generation)"
        stateDirectory = folder + "/state"
        codeFile = folder + "/pairing-code"
        output = folder + "/peripheral\(suffix).out"
        receiptsFile = folder + "/receipts\(suffix).log"
        do {
            try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            var arguments = [
                "peripheral", "--adapter", adapter, "--state-dir", stateDirectory, "--pairing-code-file", codeFile,
                "--uinput-name", uinputName, "--receipts-log", receiptsFile,
            ]
            if let lockoutSeconds { arguments += ["--lockout-seconds", String(lockoutSeconds)] }
            if let uinputPath { arguments += ["--uinput-path", uinputPath] }
            // A launcher (e.g. setpriv dropping capabilities) runs hil itself.
            process.executableURL = URL(fileURLWithPath: launcher.first ?? hil)
            process.arguments = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [hil] + arguments
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardOutput = handle
            process.standardError = handle
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let pid = process.processIdentifier
            running.withLock { _ = $0.insert(pid) }
        } catch {
            throw RunnerError("cannot start hil peripheral: \(error)")
        }
        guard expectRegistration else { return }
        guard wait(for: "registered on \(adapter)", timeout: timeout) else {
            let tail = lastLines(15)
            stop()
            throw RunnerError("hil peripheral did not register on \(adapter) within \(timeout):\n\(tail)")
        }
    }

    var log: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

    var isRunning: Bool { process.isRunning }

    func lastLines(_ count: Int) -> String {
        log.split(separator: "\n").suffix(count).map { "  | \($0)" }.joined(separator: "\n")
    }

    func wait(for text: String, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if log.contains(text) { return true }
            if !process.isRunning { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// The pairing code the peripheral shows (written to its code file).
    func pairingCode() -> String? {
        (try? String(contentsOfFile: codeFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits for the process to exit by itself; its status, or nil if it still runs after `timeout`.
    func waitForExit(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        let pid = process.processIdentifier
        running.withLock { _ = $0.remove(pid) }
        return process.terminationStatus
    }

    /// The process's resident memory (VmRSS), in KiB; nil once it has exited.
    func residentKiB() -> Int? {
        guard process.isRunning,
              let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// Interrupts every peripheral under test that is still running (the run was interrupted).
    public static func interruptAll() {
        for pid in running.withLock({ $0 }) { kill(pid, SIGINT) }
    }

    /// Ctrl-C, then SIGKILL after 5 s; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        let pid = process.processIdentifier
        defer { running.withLock { _ = $0.remove(pid) } }
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGINT)
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A runner failure that is not a verdict: the rig or the device under test did not do its part.
public struct RunnerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
