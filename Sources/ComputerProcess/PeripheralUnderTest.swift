import Foundation
package import Processes
package import Records
package import RigControl
import Waiting

/// The device under test: `hil peripheral` as its own process, with a fresh state folder, so every scenario
/// starts clean (no pairings, no lockout). It says when it serves through its ready file (`ReadyRecord`), and is
/// stopped as it would be by a person: Ctrl-C, then SIGKILL if it does not exit within 5 s.
package final class PeripheralUnderTest: Sendable {
    package let child: ChildProcess
    package let output: String
    package let stateDirectory: String
    package let codeFile: String
    /// Each command's receipt and uinput write times (`hil peripheral --receipts-log`).
    package let receiptsFile: String
    /// Written by the peripheral each time it serves (`hil peripheral --ready-file`).
    package let readyFile: String
    /// Releases a held peripheral (`hil peripheral --start-when`).
    package let startFile: String
    package let launch: Launch

    /// How the device under test is stopped.
    package static let teardown: [TeardownStep] = [.signal(SIGINT), .wait(.seconds(5)), .kill]

    /// What to start.
    package struct Launch: Sendable, Equatable {
        package var hil: String
        package var adapter: String
        package var uinputName: String
        /// The scenario's folder: the state folder, the log, the receipts and the ready file go there.
        package var folder: String
        /// The pairing lockout after 3 wrong codes (the peripheral's default when nil).
        package var lockoutSeconds: Int?
        /// The uinput node to use (a denied one for R10).
        package var uinputPath: String?
        /// A program that runs hil itself (e.g. setpriv dropping capabilities).
        package var launcher: [String] = []
        /// 2 and up for the computer started again within a scenario (a restartPeripheral step): the same state
        /// folder, its own log and receipts (peripheral-2.out, receipts-2.log).
        package var generation = 1
        /// Started ahead, held before it touches the bus until `release` (`hil peripheral --start-when`).
        package var held = false
        /// The transports it serves (`--transport`); it is ready once each serves (its ready file lists them).
        package var endpoints: [String] = ["ble"]
        /// Where the tcp endpoint listens and publishes: the rig's computer host (`--netns`, `--avahi-bus`).
        package var network: NetworkHosts?
        /// The roster of the run that starts it (`RunStop.computers`), whose interrupt stops it; none for a computer
        /// nothing interrupts from outside (hil bench's, hil record's: they stop their own).
        package var roster: ChildRoster?

        package init(
            hil: String, adapter: String, uinputName: String, folder: String, lockoutSeconds: Int? = nil,
            uinputPath: String? = nil, launcher: [String] = [], generation: Int = 1, held: Bool = false,
            endpoints: [String] = ["ble"], network: NetworkHosts? = nil, roster: ChildRoster? = nil
        ) {
            self.hil = hil
            self.adapter = adapter
            self.uinputName = uinputName
            self.folder = folder
            self.lockoutSeconds = lockoutSeconds
            self.uinputPath = uinputPath
            self.launcher = launcher
            self.generation = generation
            self.held = held
            self.endpoints = endpoints
            self.network = network
            self.roster = roster
        }

        /// The same, serving a network transport (`tcp`, `udp`; and BLE too when `alsoBLE`) in the rig's computer host.
        package func serving(_ transports: [String], on hosts: NetworkHosts, alsoBLE: Bool = false) -> Launch {
            var launch = self
            launch.endpoints = alsoBLE ? ["ble"] + transports : transports
            launch.network = hosts
            return launch
        }

        /// `--transport …` and where tcp listens, when it serves more than BLE.
        package var transportArguments: [String] {
            guard endpoints != ["ble"] else { return [] }
            var arguments = ["--transport", endpoints.joined(separator: ",")]
            if let network { arguments += ["--netns", network.computerNetns, "--avahi-bus", network.computerBus] }
            return arguments
        }
    }

    private init(_ launch: Launch) throws(ComputerError) {
        self.launch = launch
        let suffix = launch.generation == 1 ? "" : "-\(launch.generation)"
        stateDirectory = launch.folder + "/state"
        codeFile = launch.folder + "/pairing-code"
        output = launch.folder + "/peripheral\(suffix).out"
        receiptsFile = launch.folder + "/receipts\(suffix).log"
        readyFile = launch.folder + "/ready\(suffix).json"
        startFile = launch.folder + "/start\(suffix)"
        var arguments = [
            "peripheral", "--adapter", launch.adapter, "--state-dir", stateDirectory, "--pairing-code-file", codeFile,
            "--uinput-name", launch.uinputName, "--receipts-log", receiptsFile, "--ready-file", readyFile,
        ]
        if let lockoutSeconds = launch.lockoutSeconds { arguments += ["--lockout", "\(lockoutSeconds)s"] }
        if let uinputPath = launch.uinputPath { arguments += ["--uinput-path", uinputPath] }
        if launch.held { arguments += ["--start-when", startFile] }
        arguments += launch.transportArguments
        do {
            try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: readyFile)
            try? FileManager.default.removeItem(atPath: startFile)
            let program = launch.launcher.first ?? launch.hil
            let rest = launch.launcher.isEmpty ? arguments : Array(launch.launcher.dropFirst()) + [launch.hil] + arguments
            child = try ChildProcess(program, rest, output: .file(output), ownProcessGroup: true)
        } catch {
            throw ComputerError(.computer, "cannot start hil peripheral: \(error)", cause: error)
        }
        launch.roster?.add(child)
    }

    /// Starts the computer and waits until it serves (its ready file), at most `timeout`.
    /// - Throws: `ComputerError` when it cannot start, exits, or does not serve in time, with its last lines.
    package static func start(_ launch: Launch, timeout: Duration = .seconds(20)) async throws(ComputerError) -> PeripheralUnderTest {
        var launch = launch
        launch.held = false
        let peripheral = try PeripheralUnderTest(launch)
        try await peripheral.waitUntilServing(timeout: timeout)
        return peripheral
    }

    /// Starts the computer held (`hil peripheral --start-when`): its process and runtime start while the rig is busy
    /// with the scenario before; it creates its uinput device and touches the bus only when `release` lets it.
    package static func prepare(_ launch: Launch) throws(ComputerError) -> PeripheralUnderTest {
        var launch = launch
        launch.held = true
        return try PeripheralUnderTest(launch)
    }

    /// Lets a prepared computer connect to the bus and register, and waits until it serves, at most `timeout`.
    package func release(timeout: Duration = .seconds(20)) async throws(ComputerError) {
        guard FileManager.default.createFile(atPath: startFile, contents: Data()) else {
            let tail = lastLines(15)
            await stop()
            throw ComputerError(.computer, "cannot write \(startFile) to release the prepared hil peripheral:\n\(tail)")
        }
        try await waitUntilServing(timeout: timeout)
    }

    private func waitUntilServing(timeout: Duration) async throws(ComputerError) {
        // The computer writes its ready file once every endpoint serves: each change in its folder, and its exit,
        // wake the wait.
        do {
            let watch = try FolderWatch(launch.folder)
            defer { watch.stop() }
            child.whenExited { [changes = watch.changes] _ in changes.signal() }
            try await watch.changes.until("ready file \(readyFile)", timeout: timeout) { () throws(ComputerError) -> Void? in
                if let record = try? ReadyRecord.read(from: readyFile), launch.endpoints.allSatisfy(record.endpoints.contains) { return () }
                if let ended = child.termination {
                    throw ComputerError(.computer, "hil peripheral \(ended) before it served on \(launch.adapter):\n\(lastLines(15))")
                }
                return nil
            }
            return
        } catch let error as ComputerError {
            throw error
        } catch is CancellationError {
            throw ComputerError(.interrupted, "waiting for hil peripheral to serve on \(launch.adapter): cancelled (the run was interrupted)")
        } catch is WaitTimeout {
            // The time is up: below.
        } catch {
            await stop()
            throw ComputerError(.computer, "\(error); hil peripheral cannot be awaited", cause: error)
        }
        let tail = lastLines(15)
        await stop()
        throw ComputerError(.computer, "hil peripheral did not serve on \(launch.adapter) within \(timeout) (no \(readyFile)):\n\(tail)")
    }

    /// Starts the computer without waiting for it to serve: for R10, where it must refuse to start.
    package static func spawn(_ launch: Launch) throws(ComputerError) -> PeripheralUnderTest {
        try PeripheralUnderTest(launch)
    }

    package var log: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

    package var isRunning: Bool { child.termination == nil }

    package func lastLines(_ count: Int) -> String {
        log.split(separator: "\n").suffix(count).map { "  | \($0)" }.joined(separator: "\n")
    }

    /// The writes this computer received so far, from its receipts log (complete once it stopped).
    package func receipts() -> [ReceiptLine] {
        ReceiptLine.parse(log: (try? String(contentsOfFile: receiptsFile, encoding: .utf8)) ?? "")
    }

    /// The pairing code the peripheral shows (written to its code file).
    package func pairingCode() -> String? {
        (try? String(contentsOfFile: codeFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The pairing code it shows once it shows one other than `earlier`, awaited as its file's change.
    /// - Throws: `ComputerError` `.computer` when none came within `timeout`; `.interrupted` when cancelled.
    package func awaitPairingCode(otherThan earlier: String? = nil, timeout: Duration) async throws(ComputerError) -> String {
        do {
            let watch = try FolderWatch(launch.folder)
            defer { watch.stop() }
            return try await watch.changes.until("the pairing code in \(codeFile)", timeout: timeout) {
                pairingCode().flatMap { $0.isEmpty || $0 == earlier ? nil : $0 }
            }
        } catch is CancellationError {
            throw ComputerError(.interrupted, "waiting for the pairing code: cancelled (the run was interrupted)")
        } catch {
            throw ComputerError(.computer, "\(error)\n\(lastLines(10))", cause: error)
        }
    }

    /// Waits for the process to exit by itself; its status, or nil if it still runs after `timeout`.
    package func waitForExit(timeout: Duration) async -> Int32? {
        guard let ended = await child.exitStatus(timeout: timeout) else { return nil }
        launch.roster?.remove(child)
        return ended.status
    }

    /// The process's resident memory (VmRSS), in KiB; nil once it has exited.
    package func residentKiB() -> Int? {
        guard isRunning,
              let status = try? String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// Ctrl-C, then SIGKILL after 5 s; returns the exit status (128 + N for a death by signal N).
    @discardableResult
    package func stop() async -> Int32 {
        defer { launch.roster?.remove(child) }
        return await child.teardown(Self.teardown).status
    }

    /// As `stop`, for a `defer` on an error path; returns at once when the computer was stopped already.
    package func stopBlocking() {
        launch.roster?.remove(child)
        _ = child.teardownBlocking(Self.teardown)
    }
}
