import ArgumentParser
import Foundation
import NetSocket
import Radio
import System

/// `hil radio`: one controller of the vm rig's radio model, bridged between the kernel and btvirt's server.
struct RadioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "radio",
        abstract: "Bridge one emulated controller between /dev/vhci and btvirt's server socket, in a real radio's time.",
        discussion: """
            Creates a controller (hciN) on the kernel's virtual HCI and connects it to a controller of its own on \
            btvirt's LE server socket (`btvirt -L -s`), passing HCI packets both ways. With --interval-ms above 0 \
            each ACL packet the host sends waits for its link's next connection event: one every interval from the \
            moment the link connected (or its parameters last changed), at most --packets-per-event in one. The \
            interval is the one the two hosts negotiated (the rig sets it in bluetoothd's [LE] \
            Min/MaxConnectionInterval); the bridge logs each link's, and says so when it is not --interval-ms. \
            With --interval-ms 0 every packet goes at once: the bridge's own cost. Runs until SIGTERM or Ctrl-C, \
            then writes its totals to the log. Rigs/README.md, "The radio model", says what the model leaves out.

            Needs root (for /dev/vhci) and a running `btvirt -L -s`; the vm rig starts both when its rig file \
            says "radio": {"model": "connectionEvents"}.
            """
    )

    @Option(help: ArgumentHelp("The kernel's virtual HCI device.", valueName: "path"))
    var vhci = "/dev/vhci"

    @Option(help: ArgumentHelp("btvirt's LE server socket (BlueZ's btvirt -s makes it at this fixed path).", valueName: "path"))
    var socket = "/tmp/bt-server-le"

    /// The ranges of its number options (`OptionRange`: in their help, and the check that refuses a value outside).
    static let ranges = (
        packetsPerEvent: OptionRange<Int>("--packets-per-event", 1, to: 127),
        delayMs: OptionRange<Double>("--delay-ms", 0, to: 10_000, unit: "ms"),
        errorRate: OptionRange<Double>("--error-rate", BridgeCommand.errorRates.lowerBound, below: BridgeCommand.errorRates.upperBound))

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The connection interval the rig asked for, in ms: 0 passes every packet at once. Range: 0, or 7.5 to 4000 ms in steps of 1.25.",
        discussion: "Links keep the interval their connection reports.", valueName: "ms"))
    var intervalMs: Double

    @Option(parsing: .unconditional, help: ranges.packetsPerEvent.help(
        "How many ACL packets one connection event carries.",
        discussion: "Default 6: our 100 Hz streams need 1.5 per 15 ms event and 3 per 30 ms one; 6 leaves room for a gesture's burst. The host is told of twice as many controller buffers."))
    var packetsPerEvent = RadioModel.defaultPacketsPerEvent

    @Option(parsing: .unconditional, help: ranges.delayMs.help(
        "An extra fixed delay for every ACL packet the host sends, in ms (for calibration).", valueName: "ms"))
    var delayMs: Double = 0

    @Option(parsing: .unconditional, help: ranges.errorRate.help(
        "The chance that one transmission of an ACL packet fails; the link layer sends it again, in the event and at the next.",
        discussion: "Nothing is lost: a failure delays the packet (Rigs/README.md, \"The radio model\"). Each bridge is one direction of its links.",
        valueName: "P"))
    var errorRate = 0.0

    @Option(help: ArgumentHelp("A FIFO to make here and read lines from while bridging: `delay MS` sets the extra delay, `error-rate P` the packet error rate.",
                               discussion: "hil calibrate writes it to give ble and hid a known delay in a running guest; each change is logged.",
                               valueName: "path"))
    var control: String?

    @Flag(help: ArgumentHelp(
        "Time the bridge in this process instead, over socket pairs: no /dev/vhci, no btvirt, no root.",
        discussion: "200 ACL packets at 100 Hz through one bridge, then two with a relay between; prints each path's waits and exits 1 when they are not the model's (a median of I/2 ± 1.5 ms, a p99 of at most I + 2 ms; with --interval-ms 0, a median of at most 0.3 ms). A benchmark: run it on a quiet machine (docs/developing.md, \"The radio model's timing\")."))
    var selfTest = false

    @Option(help: ArgumentHelp("Append the bridge's log here (links, their intervals, the totals) instead of standard error.",
                               valueName: "file"))
    var log: String?

    func validate() throws {
        if intervalMs != 0 {
            let units = intervalMs / 1.25
            guard (7.5...4000).contains(intervalMs), units == units.rounded() else {
                throw ValidationError("--interval-ms takes 0, or 7.5 to 4000 ms in steps of 1.25, not \(intervalMs)")
            }
        }
        try Self.ranges.packetsPerEvent.check(packetsPerEvent)
        try Self.ranges.delayMs.check(delayMs)
        try Self.ranges.errorRate.check(errorRate)
        if selfTest && delayMs != 0 {
            throw ValidationError("--self-test times the model without an extra delay: leave --delay-ms out")
        }
    }

    /// The model the options describe.
    var model: RadioModel {
        let delay = Int64((delayMs * 1_000_000).rounded())
        guard intervalMs > 0 else { return RadioModel(timing: .immediate, extraDelayNanoseconds: delay) }
        var model = RadioModel(
            timing: .connectionEvents(packetsPerEvent: packetsPerEvent, buffers: RadioModel.buffers(packetsPerEvent: packetsPerEvent)),
            extraDelayNanoseconds: delay, expectedIntervalUnits: UInt16((intervalMs / 1.25).rounded()))
        model.packetErrorRate = errorRate
        return model
    }

    func run() async throws {
        if selfTest { return try await runSelfTest() }
        let output = try logFile()
        let clock = MonotonicClock()
        let write: @Sendable (RadioInstant, String) -> Void = { time, text in
            try? output.writeAll(Array("\(time) \(text)\n".utf8))
        }
        let controller: FileDescriptor
        do {
            controller = try UnixSocket.connect(path: socket)
        } catch {
            throw failure("hil radio: \(error.what)", hint: "start `btvirt -L -s` first, as root (it makes /tmp/bt-server-le), or give its --socket")
        }
        let (host, index) = try Result { () throws(RadioError) in try VirtualHCI.open(vhci) }.mapError { failure("hil radio: \($0)") }.get()
        write(clock.now(), "hci\(index) created on \(vhci), bridged to \(socket): \(describe(model))")
        let bridge = RadioBridge(host: .init(file: host, name: "\(vhci) (hci\(index))"),
                                 controller: .init(file: controller, name: "btvirt's socket \(socket)"), clock: clock, log: write)
        let controlFile = try openControl()
        let answers = try openAnswers()
        let answer: @Sendable (String) -> Void = { line in try? answers?.writeAll(Array((line + "\n").utf8)) }
        let (stopRead, stopWrite) = try FileDescriptor.pipe()
        let forwarder = InterruptForwarder { try? stopWrite.writeAll([1]) }
        defer { forwarder.cancel() }
        let model = model
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<RadioBridgeCore, RadioError>, Never>) in
            // The bridge blocks in poll: a thread of its own, never one of the cooperative pool.
            Thread { continuation.resume(returning: Result { () throws(RadioError) in try bridge.run(model, stop: stopRead, control: controlFile, answer: answer) }) }.start()
        }
        switch outcome {
        case .success(let core):
            write(clock.now(), "stopped: \(Self.totals(core.scheduler.statistics))")
        case .failure(let error):
            write(clock.now(), "failed: \(error.what)")
            throw failure("hil radio: \(error)")
        }
    }

    /// `--self-test`: both paths' lines on standard output, each finding under its path; exit 1 when there is one.
    private func runSelfTest() async throws {
        let test = RadioSelfTest(model: model, intervalUnits: intervalMs > 0 ? UInt16((intervalMs / 1.25).rounded()) : 12)
        print("hil radio --self-test: \(describe(model)), \(test.count) packets at 100 Hz")
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[RadioSelfTest.Measurement], RadioError>, Never>) in
            // It sleeps between sends and waits for its threads: a thread of its own, never one of the cooperative pool.
            Thread { continuation.resume(returning: Result { () throws(RadioError) in try test.run() }) }.start()
        }
        let measurements = try outcome.mapError { failure("hil radio --self-test: \($0)") }.get()
        for measurement in measurements {
            print(measurement.line)
            for finding in measurement.findings { print("  ✗ \(finding)") }
        }
        if measurements.contains(where: { !$0.findings.isEmpty }) { throw ExitCause.productFailed.exit }
    }

    /// The control FIFO, made if it is not there, opened for reading and writing (so the bridge never reads its end
    /// when a writer closes) and without blocking.
    private func openControl() throws -> FileDescriptor? {
        guard let control else { return nil }
        if mkfifo(control, 0o600) != 0 && errno != EEXIST {
            throw failure("hil radio: cannot make the control FIFO \(control): \(Errno.current.numbered)", hint: "choose a --control in a folder you can write", .invalidInput)
        }
        do {
            return try FileDescriptor.open(control, O_RDWR | O_NONBLOCK)
        } catch {
            throw failure("hil radio: cannot open the control FIFO \(control): \(error.numbered)")
        }
    }

    /// The answers file beside the control FIFO (`<control>.answers`, `BridgeAnswer`'s lines), emptied at the start;
    /// nil without a control FIFO.
    private func openAnswers() throws -> FileDescriptor? {
        guard let control else { return nil }
        let path = BridgeAnswer.file(forControl: control)
        do {
            return try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, permissions: 0o600)
        } catch {
            throw failure("hil radio: cannot write the answers file \(path): \(error.numbered)", hint: "choose a --control in a folder you can write", .invalidInput)
        }
    }

    private func logFile() throws -> FileDescriptor {
        guard let log else { return FileDescriptor(owning: dup(STDERR_FILENO)) }
        do {
            return try FileDescriptor.open(log, O_WRONLY | O_CREAT | O_APPEND)
        } catch {
            throw failure("hil radio: cannot write the log \(log): \(error.numbered)", hint: "choose a --log in a folder you can write", .invalidInput)
        }
    }

    /// Prints why and ends with `status`: by default no usable rig (no btvirt, no /dev/vhci, no control FIFO).
    private func failure(_ message: String, hint: String? = nil, _ status: ExitCause = .noUsableRig) -> ExitCode {
        printError(hint.map { "\(message)\n  → \($0)" } ?? message)
        return status.exit
    }

    private func describe(_ model: RadioModel) -> String {
        let delay = delayMs > 0 ? ", plus \(delayMs) ms" : ""
        switch model.timing {
        case .immediate: return "immediate (every packet at once\(delay))"
        case .connectionEvents(let perEvent, let buffers):
            return "connection events (the rig asked for \(intervalMs) ms; \(perEvent) packets per event, \(buffers) buffers\(delay))"
        }
    }

    /// `released 812 (held 7.9 ms on average, 15.0 ms at most; sent 0.12 ms after their event on average, 2.30 ms at
    /// most), 40 at once, 0 dropped at disconnects`.
    static func totals(_ s: ConnectionEventScheduler.Statistics) -> String {
        func ms(_ nanoseconds: Int64, _ digits: Int = 1) -> String { String(format: "%.\(digits)f ms", Double(nanoseconds) / 1e6) }
        let average = s.released == 0 ? "" : " (held \(ms(s.heldNanoseconds / Int64(s.released))) on average, \(ms(s.longestHoldNanoseconds)) at most;"
            + " sent \(ms(s.lateNanoseconds / Int64(s.released), 2)) after their event on average, \(ms(s.latestNanoseconds, 2)) at most)"
        return "released \(s.released)\(average), \(s.passedAtOnce) at once, \(s.dropped) dropped at disconnects"
            + (s.retransmissions == 0 ? "" : "; \(s.retransmissions) transmissions failed and were sent again, \(s.eventsClosed) events closed by two in a row")
    }
}
