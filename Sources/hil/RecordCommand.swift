import ArgumentParser
import Foundation
import System
import Records
import InputCodes
import Recording
import Scenario
import StrictJSON

/// `hil record`: turns a session — a real phone, or any client, driving the real computer side — into a scenario
/// of `send` steps whose expectations come from the frames that came out (docs/recording.md).
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a session with the computer side as a scenario that replays it and checks what came out.",
        discussion: """
            Live: runs the computer side (hil peripheral, a fresh state: the phone pairs with the code printed here) \
            on --adapter (ble, hid) or the network (tcp, udp) until Ctrl-C or --duration, reads its uinput device, \
            and writes --output. --from DIR converts a finished session instead: a hil run scenario folder run \
            with --capture always (receipts.log + evdev.log), or a live recording's --work-dir.

            Each burst of writes (split at idle gaps of --gap) becomes a send step with the writes as received, \
            expecting the key and button events that came out exactly, the motion totals within \
            --tolerance-percent, and nothing else. Refused writes, pairing, pings and udp binding are left out: \
            no code, port or address reaches the file. The scenario is checked as hil validate checks it before it \
            is written. Replay it with `hil run FILE` (offline: `hil replay FILE`).
            """
    )

    @Option(help: ArgumentHelp("The one transport the phone uses: ble (JSON commands), hid (reports), tcp, udp.",
                               valueName: "transport"))
    var transport: Transport

    @Option(help: ArgumentHelp("Where to write the scenario.", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("The scenario's name.", discussion: "Default: \"recorded session on TRANSPORT\"."))
    var name: String?

    @Option(help: ArgumentHelp("Convert a finished session: a scenario folder of hil run --capture always, or a live recording's work folder.",
                               valueName: "dir"))
    var from: String?

    /// The ranges of its number options (`OptionRange`: in their help, and the check that refuses a value outside).
    static let ranges = (
        gap: OptionRange<DurationArgument>("--gap", .milliseconds(1), to: .seconds(600)),
        tolerancePercent: OptionRange<Double>("--tolerance-percent", 0, to: 100),
        duration: OptionRange<DurationArgument>("--duration", atLeast: .seconds(1)))

    @Option(parsing: .unconditional, help: DurationArgument.help(
        "An idle time at least this long between two writes starts a new step.", range: ranges.gap))
    var gap = DurationArgument(.milliseconds(SessionRecorder.defaultGapMs))

    @Option(parsing: .unconditional, help: ranges.tolerancePercent.help(
        "How far each motion total may stray on replay, in percent of it (an allowance under one count is exact)."))
    var tolerancePercent = SessionRecorder.defaultTolerancePercent

    @Option(parsing: .unconditional, help: DurationArgument.help(
        "Live: stop after this long.", range: ranges.duration, discussion: "Default: at Ctrl-C."))
    var duration: DurationArgument?

    @Option(help: ArgumentHelp("Live: the computer's adapter (ble, hid).", discussion: "Default: $HIL_PERIPHERAL_ADAPTER, else hci0."))
    var adapter: String?

    @Option(help: "Live: the name of the computer's uinput device.")
    var uinputName = "RemoteTouch HIL Virtual Input"

    @Option(help: ArgumentHelp("Live, tcp and udp: listen in this network namespace.", discussion: "Default: the rig's computer host inside a rig ($HIL_NET_COMPUTER_NETNS), else this host.", valueName: "name"))
    var netns: String?

    @Option(help: ArgumentHelp("Live, tcp: avahi-daemon's bus, or none.", discussion: "Default: the rig's computer host's inside a rig, else the system bus.", valueName: "address"))
    var avahiBus: String?

    @Option(help: ArgumentHelp("Live: the computer's folder (receipts.log, evdev.log, its log); kept, so --from can convert it again.",
                               discussion: "Default: a new folder under the temporary directory.", valueName: "dir"))
    var workDir: String?

    func validate() throws {
        try Self.ranges.gap.check(gap)
        try Self.ranges.tolerancePercent.check(tolerancePercent)
        if let duration { try Self.ranges.duration.check(duration) }
        if from != nil && (duration != nil || adapter != nil || workDir != nil || netns != nil || avahiBus != nil) {
            throw ValidationError("--from converts a finished session: --duration, --adapter, --netns, --avahi-bus and --work-dir are for a live one")
        }
    }

    func run() async throws {
        if let from {
            let folder = URL(fileURLWithPath: from).standardizedFileURL.path
            try convert(receiptsFile: folder + "/receipts.log", evdevFile: folder + "/evdev.log", source: "the session in \(from)")
        } else {
            try await live()
        }
    }

    var options: SessionRecorder.Options {
        var options = SessionRecorder.Options(transport: transport)
        options.name = name
        options.gap = gap.duration
        options.tolerancePercent = tolerancePercent
        return options
    }

    /// Reads a session's receipts and frames, makes the scenario, checks it and writes it.
    func convert(receiptsFile: String, evdevFile: String, source: String) throws {
        let folder = (receiptsFile as NSString).deletingLastPathComponent
        guard let receipts = try? String(contentsOfFile: receiptsFile, encoding: .utf8) else {
            throw fail("\(receiptsFile): cannot read it; --from takes a scenario folder of hil run's output (NNN-name/) or a live recording's --work-dir")
        }
        if FileManager.default.fileExists(atPath: folder + "/receipts-2.log") {
            throw fail("\(folder): the computer restarted during this session (receipts-2.log); a recording covers one computer session")
        }
        guard let evdev = try? String(contentsOfFile: evdevFile, encoding: .utf8) else {
            throw fail("\(evdevFile): cannot read it; run the scenario with `hil run --capture always` so its folder keeps evdev.log")
        }
        if evdev.contains("# SYN_DROPPED") {
            throw fail("\(evdevFile): the reader fell behind and the kernel dropped events (SYN_DROPPED): its frames are incomplete, so expectations derived from them would be wrong; record again")
        }
        let frames: [EvdevFrame]
        do {
            frames = try EvdevLog.frames(evdev)
        } catch {
            throw fail("\(evdevFile): \(error)")
        }
        var options = self.options
        options.receiptsFile = receiptsFile
        options.source = source
        let recording: SessionRecorder.Recording
        do {
            recording = try SessionRecorder(options).record(RecordedReceipt.parse(log: receipts), frames: frames)
        } catch {
            throw fail(error.description)
        }
        try write(recording)
    }

    /// Checks the scenario by the rule hil validate, replay and run apply (`ScenarioValidity`), then writes it.
    func write(_ recording: SessionRecorder.Recording) throws {
        let text = recording.scenario.text
        var validity = ScenarioValidity()
        let checked: ScenarioValidity.Checked
        do {
            checked = validity.check(try Scenario.parse(try JSONParser().parse(Array(text.utf8)), file: output), file: output)
        } catch {
            throw fail("the recording does not validate, which is a bug in hil record (please report it):\n\(error)")
        }
        guard let scenario = checked.scenario else {
            throw fail("the recording does not validate, which is a bug in hil record (please report it):\n" + checked.problems.joined(separator: "\n"))
        }
        do {
            try text.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            throw fail("cannot write \(output): \(FileAccess.reason(of: error))")
        }
        print("wrote \(output): \(recording.commands) write(s) in \(recording.segments) segment(s), \(counted(scenario.script.steps.count, "step")), \(scenario.checkCount) check(s); \(recording.refused) refused write(s) left out")
        if recording.framesBefore > 0 {
            print("note: \(recording.framesBefore) frame(s) came before the first write; no step expects them")
        }
        print("replay it on the rig: hil run \(output)    (offline: hil replay \(output))")
    }

    /// Prints why and ends with `status`: by default invalid input (the --from folder, a path to write).
    func fail(_ message: String, _ status: ExitCause = .invalidInput) -> ExitCode {
        printError("hil record: \(message)")
        return status.exit
    }
}
