package import RigControl
import Foundation
package import Processes
import Synchronization
package import System

/// Runs one command with a rig up, whatever its kind, and returns the command's exit status.
///
/// - vm: a fresh QEMU guest (`VMRunner`), the command inside;
/// - virtual: btvirt and, for a private rig, its own bus and bluetoothd (`VirtualRig`), the command here;
/// - hardware: the command here, on the system's bluetoothd.
///
/// The command learns the rig through `HIL_RIG`, `HIL_PERIPHERAL_ADAPTER` and `HIL_CENTRAL_ADAPTER` (and
/// `DBUS_SYSTEM_BUS_ADDRESS` for a private bus). Exit status: the command's own, else `RigError.exitStatus`'s.
package final class RigJobRunner: Sendable {
    package struct Options: Sendable {
        package var timeout: Duration
        /// Print how long the image, the rig and the command took (to `report`).
        package var timing: Bool
        /// Keep the vm guest's share folder even when the command succeeds.
        package var keep: Bool
        /// vm only: start nothing in the guest (for testing rig bring-up code).
        package var bare: Bool
        /// vm only: copy the guest's `$HIL_SHARE/results` here after the command (whatever its status).
        package var resultsDestination: String?

        package init(timeout: Duration = .seconds(1800), timing: Bool = false, keep: Bool = false, bare: Bool = false,
                    resultsDestination: String? = nil)
        {
            self.timeout = timeout
            self.timing = timing
            self.keep = keep
            self.bare = bare
            self.resultsDestination = resultsDestination
        }
    }

    package let rig: RigDefinition
    package let rigsDirectory: String
    package let facts: HostFacts
    package let options: Options
    private let report: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var interrupted = false
        var vm: VMRunner?
        var child: ChildProcess?
    }

    /// - Parameter report: receives one-line messages for the person running it (standard error).
    package init(rig: RigDefinition, rigsDirectory: String, facts: HostFacts, options: Options,
                report: @escaping @Sendable (String) -> Void)
    {
        self.rig = rig
        self.rigsDirectory = rigsDirectory
        self.facts = facts
        self.options = options
        self.report = report
    }

    /// Stops the run from another thread (Ctrl-C): the command is stopped, the rig taken down. In the vm rig the
    /// first call asks the job in the guest to stop (what it wrote is kept); a second stops the guest at once.
    package func interrupt() {
        let (vm, child) = state.withLock { state in
            state.interrupted = true
            return (state.vm, state.child)
        }
        if let vm, vm.interrupt() {
            report("stopping the command in the guest (up to \(vm.interruptGrace.components.seconds) s; what it wrote is kept); interrupt again to stop the guest at once")
        }
        child?.signal(SIGTERM)
    }

    /// - Parameters:
    ///   - console: the vm guest's console text as it arrives (the command's output is part of it).
    /// - Throws: `RigError` when the rig cannot run, does not come up, times out or is interrupted.
    package func run(_ command: [String], console: @escaping @Sendable (String) -> Void) throws(RigError) -> Int32 {
        let assessment = RigAssessment(rig: rig, facts: facts, rigsDirectory: rigsDirectory)
        if let failure = assessment.failures.first {
            throw RigError(.missingTool, "rig \(rig.name) cannot run here: \(failure.finding)", hint: failure.fix)
        }
        switch rig.kind {
        case .vm: return try runInGuest(command, console: console)
        case .virtual: return try runWithVirtualRig(command)
        case .hardware:
            return try runHere(command, environment: RigEnvironment(
                rig: rig.kind.rawValue, peripheralAdapter: rig.peripheralAdapter, centralAdapter: rig.centralAdapter))
        }
    }

    private func runInGuest(_ command: [String], console: @escaping @Sendable (String) -> Void) throws(RigError) -> Int32 {
        let image = try VMImage.ensure(rigsDirectory: rigsDirectory)
        if options.timing { report("image \(image.built ? "built" : "cached") in \(Self.seconds(image.elapsed)) (\(image.directory))") }
        let runner = VMRunner(rig: rig, image: image, qemu: facts.tools["qemu-system-x86_64"]!, timeout: options.timeout)
        let interrupted = state.withLock { state in
            state.vm = runner
            return state.interrupted
        }
        if interrupted { throw RigError(.interrupted, "interrupted before the guest started") }
        // PATH and every HIL_* variable pass on (test suites set their own); the guest sets HIL_RIG and HIL_SHARE.
        var environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        for (name, value) in ProcessInfo.processInfo.environment where name.hasPrefix("HIL_") {
            environment[name] = value
        }
        // The radio the guest starts (the rig file's, or --radio-interval's): the command names it in its results.
        var rigEnvironment = RigEnvironment(peripheralAdapter: rig.peripheralAdapter, centralAdapter: rig.centralAdapter, lanes: rig.lanes,
                                            radio: options.bare ? nil : rig.radio)
        rigEnvironment.supervisionTimeoutMs = rig.connection.supervisionTimeoutMs
        environment.merge(rigEnvironment.variables) { $1 }
        let job = VMJob(command: command, workingDirectory: FileManager.default.currentDirectoryPath, environment: environment)
        let result: VMRunner.Result
        do {
            result = try runner.run(job, keepShare: options.keep || options.resultsDestination != nil, bare: options.bare, console: console)
        } catch where error.code == .interrupted || error.code == .timeout {
            // The guest was stopped (a second interrupt, the timeout, or the job outlived the grace it was given):
            // what the job wrote so far (a hil run asked to stop writes its results at once) is still in the share.
            if let share = runner.shareDirectory { copyResults(from: share) }
            throw error
        }
        if options.resultsDestination != nil {
            copyResults(from: result.shareDirectory)
            if !options.keep && result.exitCode == 0 {
                try? FileManager.default.removeItem(atPath: (result.shareDirectory as NSString).deletingLastPathComponent)
            }
        }
        if result.interrupted {
            throw RigError(.interrupted, "interrupted; the command in the guest was stopped and exited with status \(result.exitCode)",
                           hint: "guest logs kept in \(result.shareDirectory)")
        }
        if options.timing {
            report("adapters ready after \(result.readyAfter.map(Self.seconds) ?? "never"), command done after \(Self.seconds(result.totalAfter)), exit status \(result.exitCode)")
        }
        if options.keep || result.exitCode != 0 {
            report("guest console and BlueZ logs in \(result.shareDirectory)")
        }
        return result.exitCode
    }

    /// Where the guest's results are on this host: the files at the top of `destination`, then what the folders hold.
    static func resultsLine(_ destination: String) -> String {
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []).sorted()
        var files: [String] = [], folders = 0
        for entry in entries where entry != "rig-logs" {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: (destination as NSString).appendingPathComponent(entry), isDirectory: &isFolder)
            if isFolder.boolValue { folders += 1 } else { files.append((destination as NSString).appendingPathComponent(entry)) }
        }
        return "results: " + (files.isEmpty ? destination : files.joined(separator: ", "))
            + (folders > 0 ? "; logs in \(folders) folder(s) there" : "") + "; the guest's BlueZ logs in \(destination)/rig-logs"
    }

    /// Copies the guest's `results` (and its BlueZ logs, as `rig-logs`) from the share to `resultsDestination`.
    private func copyResults(from share: String) {
        guard let destination = options.resultsDestination else { return }
        let results = (share as NSString).appendingPathComponent("results")
        guard FileManager.default.fileExists(atPath: results) else {
            report("the guest wrote no results (nothing in \(results))")
            return
        }
        do {
            try Self.copyContents(of: results, to: destination)
            // The guest's BlueZ logs (bluetoothd, btvirt, dbus, dmesg) go with the results.
            try? Self.copyContents(of: (share as NSString).appendingPathComponent("logs"),
                                   to: (destination as NSString).appendingPathComponent("rig-logs"))
            report(Self.resultsLine(destination))
        } catch {
            report("could not copy the guest's results from \(results) to \(destination): \(FileAccess.reason(of: error))")
        }
    }

    private func runWithVirtualRig(_ command: [String]) throws(RigError) -> Int32 {
        let start = ContinuousClock.now
        let virtual = try VirtualRig(rig: rig, facts: facts)
        defer { virtual.stop() }
        try virtual.start()
        report("rig \(rig.name) up: peripheral \(virtual.environment.peripheralAdapter), central \(virtual.environment.centralAdapter)"
               + (options.timing ? " after \(Self.seconds(ContinuousClock.now - start))" : "") + "; daemon logs in \(virtual.logDirectory)")
        return try runHere(command, environment: virtual.environment)
    }

    /// How the command is stopped on timeout or Ctrl-C.
    package static let stopSteps: [TeardownStep] = [.signal(SIGTERM), .wait(.seconds(5)), .kill]

    /// Runs the command on this host with `environment` added, honouring the timeout and interruption.
    private func runHere(_ command: [String], environment extra: RigEnvironment) throws(RigError) -> Int32 {
        guard let executable = ChildProcess.resolve(command[0]) else {
            throw RigError(.guestCommand, "\(command[0]): command not found", hint: "give a program on PATH or a path")
        }
        let environment = ProcessInfo.processInfo.environment.merging(extra.variables) { $1 }
        // Same process group: a terminal's Ctrl-C reaches the command as it would without the rig.
        let child: ChildProcess
        do throws(SystemError) {
            child = try ChildProcess(executable, Array(command.dropFirst()), environment: environment, output: .inherit,
                                     ownProcessGroup: false)
        } catch {
            throw RigError(error, code: .guestCommand)
        }
        let interrupted = state.withLock { state in
            state.child = child
            return state.interrupted
        }
        if interrupted { child.signal(SIGTERM) }
        // interrupt() signals the child, which ends this wait; so does its own exit or the timeout.
        var ended = child.wait(timeout: options.timeout)
        let timedOut = ended == nil
        if timedOut { ended = child.teardownBlocking(Self.stopSteps) }
        state.withLock { $0.child = nil }
        if timedOut { throw RigError(.timeout, "the command took longer than \(options.timeout) and was stopped", hint: "raise --timeout") }
        if state.withLock({ $0.interrupted }) { throw RigError(.interrupted, "interrupted; the command was stopped") }
        return ended!.status
    }

    /// Copies every entry of `source` into `destination` (created), replacing what is there.
    static func copyContents(of source: String, to destination: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: destination, withIntermediateDirectories: true)
        for name in try manager.contentsOfDirectory(atPath: source) {
            let target = (destination as NSString).appendingPathComponent(name)
            try? manager.removeItem(atPath: target)
            try manager.copyItem(atPath: (source as NSString).appendingPathComponent(name), toPath: target)
        }
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}

extension RigError {
    /// The exit status a command-line run reports for this error (`ExitCause`, one per cause): invalid input (64)
    /// for a rig name no rig file has, a bad rig file or `HIL_*` variable, a command that cannot be started; no
    /// usable rig (69) for one that cannot run here or did not come up; 124 timeout; 130 interrupted; the rig broke
    /// during the run (125) for a fault step that could not act and a guest that stopped under the command.
    package var exitStatus: ExitCause {
        switch code {
        case .unknownRig, .rigFile, .guestCommand: .invalidInput
        case .noRunnableRig, .missingTool, .imageBuild, .boot, .notReady: .noUsableRig
        case .timeout: .timedOut
        case .interrupted: .interrupted
        case .fault, .guestStopped: .rigBroke
        }
    }
}
