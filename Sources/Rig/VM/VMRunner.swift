package import RigControl
import Foundation
package import Processes
import Synchronization
import System

/// Boots the vm rig's guest, runs one job in it with both adapters ready, and reports how it went.
///
/// The guest's console streams live to `console` and to `console.log` in the share folder; the job's exit
/// status, a rig failure, and the guest's BlueZ logs come back through the read-write 9p share.
/// QEMU is stopped on timeout, on a guest that never gets ready, and on `interrupt()` (Ctrl-C), so no
/// stray guest outlives the run. A first interrupt of a running job asks the guest to stop the job (SIGTERM in the
/// guest, through the share's `interrupt` file) and gives it `interruptGrace` to end and power off, so what the job
/// wrote (a `hil run`'s results so far) is kept; a second interrupt, or the grace running out, stops QEMU. A job
/// that outlives the timeout is asked the same way, with the same grace, before QEMU is stopped.
package final class VMRunner: Sendable {
    package struct Result: Sendable {
        /// The job's exit status in the guest.
        package var exitCode: Int32
        /// From QEMU's start to both adapters powered (the guest's `HIL-RIG-READY`).
        package var readyAfter: Duration?
        /// From QEMU's start to the guest powering off.
        package var totalAfter: Duration
        /// Holds `console.log` and `logs/` (bluetoothd, btvirt, dbus, dmesg).
        package var shareDirectory: String
        /// The run was interrupted and the job in the guest stopped by itself, within the grace: `exitCode` is its
        /// status, and what it wrote is in the share.
        package var interrupted = false
    }

    package let rig: RigDefinition
    package let image: VMImage
    package let qemu: String
    /// Overall limit for boot plus job.
    package let timeout: Duration
    private let state = Mutex(State())

    private struct State {
        var interrupts = 0
        var interruptedAt: ContinuousClock.Instant?
        var pid: Int32 = 0
        var share: String?
        var watcher: ConsoleWatcher?
        /// The job was asked to stop (the share's `interrupt` file made).
        var asked = false
        /// When the job was asked to stop because the run outlived `timeout`.
        var timeoutAskedAt: ContinuousClock.Instant?
    }

    /// How long a job asked to stop (a first interrupt, or the timeout) may take to end before QEMU is stopped: the
    /// rig file's `machine.stopGraceSeconds`.
    package var interruptGrace: Duration { .seconds((rig.machine ?? RigDefinition.Machine()).stopGraceSeconds) }

    package init(rig: RigDefinition, image: VMImage, qemu: String, timeout: Duration) {
        precondition(rig.kind == .vm, "VMRunner runs vm rigs")
        self.rig = rig
        self.image = image
        self.qemu = qemu
        self.timeout = timeout
    }

    /// The share folder of the guest started last (`console.log`, `logs/`, the job's `results/`), once `run` made it.
    package var shareDirectory: String? { state.withLock { $0.share } }

    /// Asks the run to stop. The first time, a running job is asked to stop in the guest (`run` returns its result
    /// with `interrupted` set when it ends within `interruptGrace`); a second time, or before the guest is ready,
    /// QEMU is terminated and `run` throws `RigError.interrupted`. Safe from any thread.
    /// - Returns: whether the job in the guest was asked to stop (false: QEMU is being stopped).
    @discardableResult
    package func interrupt() -> Bool {
        let (pid, share, ask) = state.withLock { state in
            state.interrupts += 1
            if state.interruptedAt == nil { state.interruptedAt = .now }
            // Set before the file is made, so that watch() never takes a first interrupt for one that stops QEMU.
            // A job already asked to stop by the timeout is not asked again: Ctrl-C then stops QEMU at once.
            state.asked = state.interrupts == 1 && state.timeoutAskedAt == nil && state.share != nil && state.watcher?.readyAt != nil
            return (state.pid, state.share, state.asked)
        }
        if ask, let share, Self.askJobToStop(share: share) {
            return true
        }
        state.withLock { $0.asked = false }
        if pid > 0 { kill(pid, SIGTERM) }
        return false
    }

    /// Makes the share's `interrupt` file, on which the guest gives the job SIGTERM.
    private static func askJobToStop(share: String) -> Bool {
        FileManager.default.createFile(atPath: (share as NSString).appendingPathComponent("interrupt"), contents: nil)
    }

    /// How QEMU is stopped on timeout, a guest that never gets ready, or Ctrl-C.
    package static let stopSteps: [TeardownStep] = [.signal(SIGTERM), .wait(.seconds(5)), .kill]

    /// Waits for QEMU to exit, stopping it (`stopSteps`) at the readiness deadline, the overall deadline, or an
    /// interruption: at once before the guest is ready or on a second interrupt, else after `interruptGrace` if the
    /// job has not ended by then. The timeout asks a running job to stop in the same way, with the same grace.
    /// `ended`: QEMU exited by itself (after an interrupt or the timeout: the job ended within the grace).
    private func watch(_ process: ChildProcess, watcher: ConsoleWatcher, readyTimeout: Duration,
                       start: ContinuousClock.Instant) -> (reason: RigError.Code?, status: Int32, ended: Bool)
    {
        let clock = ContinuousClock()
        while true {
            let timeoutAskedAt = state.withLock { $0.timeoutAskedAt }
            let deadline = watcher.readyAt == nil ? min(start + readyTimeout, start + timeout) : start + timeout
            // Short slices: a first interrupt does not signal QEMU, so nothing else would end the wait. A deadline
            // already past means a grace is running (the timeout's, or an interrupt's that outlasts the timeout).
            let remaining = deadline - clock.now
            let ended = process.wait(timeout: remaining > .zero ? min(remaining, .milliseconds(200)) : .milliseconds(200))
            let elapsed = clock.now - start
            let (interrupts, interruptedAt, asked) = state.withLock { ($0.interrupts, $0.interruptedAt, $0.asked) }
            var reason: RigError.Code?
            if let ended {
                return (interrupts > 0 ? .interrupted : timeoutAskedAt != nil ? .timeout : nil, ended.status, true)
            } else if let interruptedAt {
                guard !asked || interrupts > 1 || clock.now - interruptedAt > interruptGrace else { continue }
                reason = .interrupted
            } else if watcher.readyAt == nil && elapsed > readyTimeout {
                reason = .notReady
            } else if elapsed > timeout {
                if let timeoutAskedAt {
                    guard clock.now - timeoutAskedAt > interruptGrace else { continue }
                } else if watcher.readyAt != nil, let share = state.withLock({ $0.share }), Self.askJobToStop(share: share) {
                    state.withLock { $0.timeoutAskedAt = clock.now }
                    continue
                }
                reason = .timeout
            }
            if let reason { return (reason, process.teardownBlocking(Self.stopSteps).status, false) }
        }
    }

    /// QEMU in its own process group, its console output captured.
    private static func start(_ qemu: String, _ arguments: [String]) throws(RigError) -> ChildProcess {
        do throws(SystemError) {
            return try ChildProcess(qemu, arguments, output: .joined, ownProcessGroup: true)
        } catch {
            throw RigError(error, code: .boot)
        }
    }

    /// Runs `job` in a fresh guest.
    /// - Parameters:
    ///   - console: receives the guest console's text as it arrives (`\r` removed).
    ///   - keepShare: keep the share folder even when all went well.
    /// - Throws: `RigError` for a guest that does not boot, never gets ready, times out or is interrupted,
    ///   each with the last console lines and where the full log is.
    ///   - bare: start nothing in the guest (no bus, btvirt or bluetoothd), to test rig bring-up code there.
    package func run(_ job: VMJob, keepShare: Bool = false, bare: Bool = false,
                    console: @escaping @Sendable (String) -> Void) throws(RigError) -> Result
    {
        let machine = rig.machine ?? RigDefinition.Machine()
        let radio = (rig.radio.model == .immediate || bare ? [] : rig.radio.kernelArguments(hil: try Self.hilExecutable()))
            + rig.kernelArguments
        let (work, share, consoleLog, log) = try Self.prepareShare(job)
        if !bare { try rig.writeBluetoothdMainConf(to: (share as NSString).appendingPathComponent(RigDefinition.mainConfFileName)) }
        let clock = ContinuousClock()
        let start = clock.now
        let watcher = ConsoleWatcher(log: log, console: console, start: start)
        state.withLock { state in
            state.share = share
            state.watcher = watcher
        }
        // Its own process group: a terminal's Ctrl-C reaches hil, which stops QEMU and reports it.
        let process = try Self.start(qemu, arguments(share: share, machine: machine, bare: bare, radio: radio))
        state.withLock { $0.pid = process.pid }
        let reader = Thread {
            guard let handle = process.output else { return }
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                watcher.consume(data)
            }
            watcher.finish()
        }
        reader.start()

        let (stopReason, status, ended) = watch(process, watcher: watcher, readyTimeout: .seconds(machine.readyTimeoutSeconds), start: start)
        watcher.waitUntilFinished()
        state.withLock { $0.pid = 0 }
        try? log.close()
        let total = clock.now - start

        let tail = watcher.lastLines(20)
        let keep = { (reason: String) -> String in "\(reason)\nlast console lines:\n\(tail)\nfull console log: \(consoleLog)" }
        switch stopReason {
        case .interrupted where !ended:
            let outlived = state.withLock { $0.asked && $0.interrupts == 1 }
            throw RigError(.interrupted, outlived
                ? "interrupted; the command in the guest did not end within \(interruptGrace.components.seconds) s (machine.stopGraceSeconds in \(rig.name).json), so the guest was stopped"
                : "interrupted; the guest was stopped", hint: "guest logs kept in \(share)")
        case .notReady:
            throw RigError(
                .notReady,
                keep("the guest did not get both adapters ready within \(machine.readyTimeoutSeconds) s (machine.readyTimeoutSeconds in \(rig.name).json)"),
                hint: "guest logs (bluetoothd, btvirt, dmesg) in \(share)/logs when it got that far")
        case .timeout:
            let grace = interruptGrace.components.seconds
            let how = ended ? "; the command in the guest was asked to stop and ended, so what it wrote is kept"
                : state.withLock({ $0.timeoutAskedAt != nil })
                ? "; the command in the guest did not end within \(grace) s of being asked to stop (machine.stopGraceSeconds in \(rig.name).json), so the guest was stopped"
                : " and was stopped"
            throw RigError(.timeout, keep("the run took longer than \(timeout)\(how)"), hint: "raise --timeout; guest logs kept in \(share)")
        default:
            break
        }
        let rigError = (try? String(contentsOfFile: (share as NSString).appendingPathComponent("rig-error"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if let rigError, !rigError.isEmpty {
            throw RigError(.notReady, keep("the guest's rig failed: \(rigError)"), hint: "guest logs in \(share)/logs")
        }
        guard let text = try? String(contentsOfFile: (share as NSString).appendingPathComponent("exit-code"), encoding: .utf8),
            let code = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            if stopReason == .interrupted {
                throw RigError(.interrupted, "interrupted; the guest stopped without the job's exit status", hint: "guest logs kept in \(share)")
            }
            // Before the rig was ready, the rig never came up; after, it broke under the command.
            throw RigError(
                watcher.readyAt == nil ? .boot : .guestStopped, keep("the guest stopped without reporting the job's exit status (QEMU exited with status \(status))"),
                hint: "the console log shows how far it got; `hil doctor` checks the host")
        }
        let interrupted = stopReason == .interrupted
        if !keepShare && code == 0 && !interrupted { try? FileManager.default.removeItem(atPath: work) }
        return Result(exitCode: code, readyAfter: watcher.readyAt, totalAfter: total, shareDirectory: share, interrupted: interrupted)
    }

    /// A fresh work folder with the guest's share folder in it, the job's script there, and the console log open.
    private static func prepareShare(_ job: VMJob) throws(RigError)
        -> (work: String, share: String, consoleLog: String, log: FileHandle)
    {
        let work = try makeWorkDirectory()
        let share = (work as NSString).appendingPathComponent("share")
        let consoleLog = (share as NSString).appendingPathComponent("console.log")
        do {
            try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
            try job.script.write(toFile: (share as NSString).appendingPathComponent("job.sh"), atomically: true, encoding: .utf8)
        } catch {
            throw RigError(.boot, "cannot prepare the guest's share folder \(share): \(FileAccess.reason(of: error))",
                           hint: "check free space and permissions under \(NSTemporaryDirectory())")
        }
        guard let log = FileHandle(forWritingAtPath: create(consoleLog)) else {
            throw RigError(.boot, "cannot write \(consoleLog)")
        }
        return (work, share, consoleLog, log)
    }

    /// - Parameter radio: the radio model's kernel command line words (`RigDefinition.Radio.kernelArguments`).
    private func arguments(share: String, machine: RigDefinition.Machine, bare: Bool, radio: [String]) -> [String] {
        // -nographic is avoided: its serial console sends terminal resets, and a tty stdin would be put in
        // raw mode. QEMU gets /dev/null for stdin and never touches the terminal.
        // -cpu qemu64, not max: with max, glibc and the Swift runtime take their AVX2 paths, which TCG seems to emulate
        // more slowly; the same 16 scenarios ran 11 % faster in qemu64 (75.3 s against 84.8 s, boot 12.4 s against 17.0 s).
        [
            "-accel", "tcg,thread=multi", "-cpu", "qemu64", "-m", String(machine.memoryMiB), "-smp", String(machine.cpus),
            "-no-reboot", "-display", "none", "-vga", "none", "-monitor", "none", "-serial", "stdio", "-nic", "none",
            "-kernel", image.kernel, "-initrd", image.initrd,
            "-append", "console=ttyS0 quiet panic=-1 cryptomgr.notests idle=poll HIL_READY_TIMEOUT=\(machine.readyTimeoutSeconds) HIL_CONTROLLERS=\(2 * machine.lanes)"
                + (bare ? " HIL_RIG_UP=0" : "") + radio.map { " " + $0 }.joined()
                // cryptomgr.notests: no self-test of each crypto algorithm as it registers (about 0.7 s of a TCG boot).
                // idle=poll: an idle vCPU polls instead of halting, so waking a task on it (the verifier's evdev reader,
                // at every uinput write) needs no interrupt to a halted vCPU, which under TCG took milliseconds: a bare
                // uinput write's p99 3.2 ms → 0.19 ms with a reader waiting on the other vCPU (docs/measurements.md).
                // HIL_DEBUG in hil's environment: the guest prints its boot stages (`HIL-STAGE <name> <s>`).
                + (ProcessInfo.processInfo.environment["HIL_DEBUG"] == nil ? "" : " HIL_DEBUG=1"),
            "-fsdev", "local,id=hostroot,path=/,readonly=on,security_model=none,multidevs=remap",
            "-device", "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot",
            "-fsdev", "local,id=hilshare,path=\(share),security_model=none",
            "-device", "virtio-9p-pci,fsdev=hilshare,mount_tag=hilshare",
            "-device", "virtio-rng-pci",
        ]
    }

    /// The `hil` whose `hil radio` the guest runs for the radio model: this process when it is hil, else the hil built
    /// beside it (a test bundle in .build/debug). The guest sees this host's files at the same paths.
    static func hilExecutable(running executable: String = ownExecutable) throws(RigError) -> String {
        let folder = (executable as NSString).deletingLastPathComponent
        let hil = (executable as NSString).lastPathComponent == "hil" ? executable : (folder as NSString).appendingPathComponent("hil")
        guard FileManager.default.isExecutableFile(atPath: hil) else {
            throw RigError(.boot, "the rig's radio model runs `hil radio` in the guest, and there is no hil at \(hil)",
                           hint: "run `swift build` first, or set \"radio\": {\"model\": \"immediate\"} in the rig file")
        }
        guard !hil.contains(where: \.isWhitespace) else {
            throw RigError(.boot, "the rig's radio model passes hil's path on the guest's kernel command line, which cannot carry \(hil)'s spaces",
                           hint: "build the project in a folder whose path has no spaces")
        }
        return hil
    }

    /// This process's executable (/proc/self/exe).
    static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    private static func makeWorkDirectory() throws(RigError) -> String {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("hil-vm.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RigError(.boot, "cannot create a folder under \(NSTemporaryDirectory()): \(Errno.current)")
        }
        return String(cString: made)
    }

    private static func create(_ path: String) -> String {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return path
    }
}

/// Reads the console: forwards it, logs it, keeps the last lines and notes when the rig became ready.
final class ConsoleWatcher: Sendable {
    private struct State {
        var partial = ""
        var lines: [String] = []
        var readyAt: Duration?
        var finished = false
        /// The bytes of a UTF-8 character cut by the end of the last read (the console arrives in any chunks).
        var pendingBytes: [UInt8] = []
    }

    private let log: Mutex<FileHandle>
    private let console: @Sendable (String) -> Void
    private let start: ContinuousClock.Instant
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    init(log: FileHandle, console: @escaping @Sendable (String) -> Void, start: ContinuousClock.Instant) {
        self.log = Mutex(log)
        self.console = console
        self.start = start
    }

    var readyAt: Duration? { state.withLock { $0.readyAt } }

    func consume(_ data: Data) {
        log.withLock { $0.write(data) }
        let text = state.withLock { state in
            let bytes = state.pendingBytes + data
            let complete = Self.completeUTF8Prefix(bytes)
            state.pendingBytes = Array(bytes[complete...])
            return String(decoding: bytes[..<complete], as: UTF8.self).replacingOccurrences(of: "\r", with: "")
        }
        console(text)
        let now = ContinuousClock.now - start
        state.withLock { state in
            state.partial += text
            var lines = state.partial.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            state.partial = lines.removeLast()
            for line in lines where line.hasPrefix("HIL-RIG-READY") && state.readyAt == nil {
                state.readyAt = now
            }
            state.lines.append(contentsOf: lines)
            if state.lines.count > 200 { state.lines.removeFirst(state.lines.count - 200) }
        }
    }

    /// How many leading bytes end on a character boundary: a multi-byte character cut at the end is held back
    /// (at most 3 bytes) for the next chunk instead of being decoded as U+FFFD.
    static func completeUTF8Prefix(_ bytes: [UInt8]) -> Int {
        var index = bytes.count
        var continuation = 0
        while index > 0 && continuation < 3 && bytes[index - 1] & 0xC0 == 0x80 {
            index -= 1
            continuation += 1
        }
        guard index > 0 else { return bytes.count }
        let lead = bytes[index - 1]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return length > continuation + 1 ? index - 1 : bytes.count
    }

    func finish() {
        state.withLock { state in
            state.partial += String(decoding: state.pendingBytes, as: UTF8.self)
            if !state.partial.isEmpty { state.lines.append(state.partial) }
            state.finished = true
        }
        done.signal()
    }

    func waitUntilFinished() {
        done.wait()
    }

    func lastLines(_ count: Int) -> String {
        state.withLock { $0.lines.suffix(count).map { "  | " + $0 }.joined(separator: "\n") }
    }
}
