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

    /// - Throws: `RunnerError` when the process cannot start or does not register within `timeout`.
    init(hil: String, adapter: String, uinputName: String, folder: String, timeout: Duration = .seconds(20)) throws(RunnerError) {
        stateDirectory = folder + "/state"
        codeFile = folder + "/pairing-code"
        output = folder + "/peripheral.out"
        do {
            try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.executableURL = URL(fileURLWithPath: hil)
            process.arguments = [
                "peripheral", "--adapter", adapter, "--state-dir", stateDirectory, "--pairing-code-file", codeFile,
                "--uinput-name", uinputName,
            ]
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
