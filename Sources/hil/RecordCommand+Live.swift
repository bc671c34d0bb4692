import Foundation
import System
import InputCodes
import Recording
import Waiting

extension RecordCommand {
    /// Runs the computer side until Ctrl-C, --duration, or the computer ends; prints the pairing code and progress;
    /// then converts what it received and what came out. The receipts and evdev.log stay in the work folder.
    func live() async throws {
        let environment = try RigOptions.environment()
        let work = URL(fileURLWithPath: workDir ?? NSTemporaryDirectory() + "hil-record-\(getpid())").standardizedFileURL.path
        do {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw fail("cannot create the work folder \(work): \(FileAccess.reason(of: error))")
        }
        var settings = LiveRecording.Settings(
            hil: RunCommand.executable, adapter: adapter ?? environment.peripheralAdapter, uinputName: uinputName, folder: work,
            transport: transport)
        if transport.isNetwork {
            settings.netns = netns ?? environment.network?.computer.netns
            settings.avahiBus = avahiBus ?? environment.network?.computer.bus
        }
        let recording: LiveRecording
        do {
            recording = try await LiveRecording.start(settings)
        } catch {
            throw fail("the computer side did not start: \(error)", .noUsableRig)
        }
        let place = transport.isNetwork ? settings.netns.map { "network namespace \($0)" } ?? "this host's network" : settings.adapter
        say("recording \(transport.rawValue) on \(place): the computer serves. Connect and pair the phone, then use it; \(duration.map { "stops after \($0) or at " } ?? "")Ctrl-C to end.")
        let reason = await waitForEnd(recording)
        let status = await recording.stop()
        let frames = recording.frames()
        let evdevFile = work + "/evdev.log"
        let text = EvdevLog.text(frames, device: uinputName, droppedCount: recording.droppedCount)
        do {
            try text.write(toFile: evdevFile, atomically: true, encoding: .utf8)
        } catch {
            throw fail("cannot write \(evdevFile): \(FileAccess.reason(of: error))")
        }
        say("stopped (\(reason)); the computer exited with status \(status)")
        try convert(receiptsFile: recording.receiptsFile, evdevFile: evdevFile, source: "a live session")
        say("its receipts.log and evdev.log stay in \(work): `hil record --from \(work) --transport \(transport.rawValue) --output FILE` converts them again (e.g. with another --gap)")
    }

    /// Prints the pairing code when one is shown and a progress line each second something changed; returns why
    /// the recording ends.
    private func waitForEnd(_ recording: LiveRecording) async -> String {
        let interrupted = InterruptFlag()
        let interrupts = InterruptForwarder { interrupted.set() }
        defer { interrupts.cancel() }
        let deadline = duration.map { ContinuousClock.now + $0.duration }
        var shownCode: String?
        var lastProgress = ""
        var tick = 0
        func ending() -> String? {
            if interrupted.isSet { return "Ctrl-C" }
            if let deadline, ContinuousClock.now >= deadline { return "after --duration \(duration.map(\.description) ?? "")" }
            if let ended = recording.ended {
                printError("hil record: \(ended)")
                return "the computer ended"
            }
            return nil
        }
        var reason = ending()
        guard reason == nil else { return reason ?? "" }
        // Every 100 ms: a pairing code as soon as it is shown, a progress line each second something changed.
        await Pace.every(.milliseconds(100)) {
            if let code = recording.pairingCode(), !code.isEmpty, code != shownCode {
                say("pairing code: \(code)  (type it on the phone; it is not written into the recording)")
                shownCode = code
            }
            tick += 1
            if tick % 10 == 0 {
                let progress = progressLine(recording)
                if progress != lastProgress {
                    say(progress)
                    lastProgress = progress
                }
            }
            reason = ending()
            return reason == nil
        }
        return reason ?? "cancelled"
    }

    /// Prints a line at once, also into a pipe or a file (a live recording is followed as it happens).
    private func say(_ line: String) {
        print(line)
        fflush(nil)
    }

    private func progressLine(_ recording: LiveRecording) -> String {
        let receipts = RecordedReceipt.parse(log: recording.receiptsLog())
        let taken = receipts.filter { $0.receipt.written != nil }.map(\.receipt.received).sorted()
        let segments = SessionRecorder(options).split(taken).count
        return "  \(taken.count) write(s) received, \(receipts.count - taken.count) refused, \(segments) segment(s), \(recording.frames().count) frame(s)"
    }
}
