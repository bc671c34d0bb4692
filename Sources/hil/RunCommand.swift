import RunContext
import ScenarioDriver
import ArgumentParser
import BumblePhone
import Foundation
import Records
import Rig
import Runner
import GestureScript
import Scenario
import Synchronization
import Evidence
import System
import Verifier

/// Replays scenarios through a real BLE link and checks what comes out of uinput.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios on a rig over ble, hid, tcp or udp and check the uinput events they cause.",
        discussion: """
            Every file is loaded and checked first (as hil validate). Then the rig comes up once (--rig auto: \
            hardware, else virtual, else vm; in the vm rig, hil itself runs inside the guest) and each scenario \
            runs with a fresh hil peripheral on the peripheral adapter, the phone's gesture model driven in real \
            time on the central adapter, and the uinput device's frames judged step by step.

            Results in --output: results.json (docs/results-format.md), junit.xml, report.html and summary.md \
            (docs/report.md), and each scenario's logs. --list shows the requirement coverage instead of running.

            Exit status (the table every command shares: hil --help): 0 only when every scenario passed; 1 when \
            one did not; 64 when a file or an option is invalid (nothing runs); 69 when no rig can run here or \
            the rig did not come up; 125 when the rig broke during the run (an adapter that no longer powers on: \
            the run stops there, as every later scenario could only error, and keeps its results); 130 when \
            interrupted; 124 when over --timeout (vm rig).
            """
    )

    @Argument(help: "Scenario files, or folders searched recursively for *.json.")
    var paths: [String] = ["Scenarios"]

    @OptionGroup var rigOptions: RigOptions

    @OptionGroup var radioOptions: RadioOptions

    @Option(help: ArgumentHelp("Where results.json, junit.xml and the logs go.", valueName: "dir"))
    var output = "results"

    @Option(help: "Run only scenarios whose name or file contains this text.")
    var filter: String?

    @Option(help: ArgumentHelp(
        "Override every scenario's write style, as another phone's stack writes.", discussion: """
        dbus: WriteValue, without response for commands and with response for a hid button change (bleak, most \
        Linux clients); fd: AcquireWrite's socket for what goes without response (as our phone writes); \
        unconfirmed: everything without response (a phone that never asks for an answer); requests: everything \
        with response. docs/protocol.md, "Order", says what each can rely on.
        """, valueName: "style"))
    var writePath: WritePath?

    /// The ranges of its number options (`OptionRange`: in their help, and the check that refuses a value outside).
    static let ranges = (
        sendJitter: OptionRange<Double>("--send-jitter", 0, to: RunSettings.maxSendJitterMs, unit: "ms"),
        timeout: OptionRange<DurationArgument>("--timeout", atLeast: .seconds(1)),
        repeats: OptionRange<Int>("--repeat", 1, to: 1000), lanes: OptionRange<Int>("--lanes", atLeast: 1),
        maxFailures: OptionRange<Int>("--max-failures", atLeast: 1))

    @Option(parsing: .unconditional, help: ranges.sendJitter.help(
        "Override every scenario's send jitter: each command leaves up to this many ms after its time on the gesture model's grid.",
        discussion: "Uniform, from a fixed seed, order kept (docs/scenarios.md, run.sendJitterMs).", valueName: "ms"))
    var sendJitter: Double?

    @Option(parsing: .unconditional, help: DurationArgument.help(
        "Stop the whole run after this long (exit status 124).", range: ranges.timeout, discussion: "Default: 30m for each --repeat."))
    var timeout: DurationArgument?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Run only slice i of n, e.g. 2/3, so a CI matrix can split the suite across boxes. Range: i from 1 to n.",
        discussion: "A scenario's slice depends only on its file path, so it stays in its slice as the suite grows; merge the slices' results.json with hil report.",
        valueName: "i/n"), transform: Shard.parsing)
    var shard: Shard?

    @Option(help: ArgumentHelp(
        "An earlier run's results.json: flag transports and gesture kinds whose step latency regressed (docs/report.md, \"The regression rule\").",
        valueName: "file"))
    var baseline: String?

    @Option(name: .customLong("repeat"), parsing: .unconditional, help: ranges.repeats.help(
        "Run the scenarios this many times in one rig session and print a stability table.",
        discussion: "A scenario whose verdict differs between repeats is reported as flaky in results.json (stability) and junit.xml.",
        valueName: "n"))
    var repeats = 1

    @Flag(help: "List the scenarios and the requirement coverage (requirements.json) without running anything.")
    var list = false

    @Flag(name: .shortAndLong, help: ArgumentHelp(
        "Print one line per scenario (a failed one with its most specific reason under it), the totals and the problems; not the rest of why, nor the tables.",
        discussion: "Those stay in results.json, summary.md and report.html."))
    var quiet = false

    @Flag(help: ArgumentHelp(
        "End each scenario at its first failed step.",
        discussion: "The steps after it are reported as not run. Quicker when only the verdict matters (mutation tests, a first look at a broken build)."))
    var failFast = false

    @Option(parsing: .unconditional, help: ranges.lanes.help(
        "Run this many scenarios at once, one per lane of the rig.",
        discussion: "A lane is a computer adapter and a phone adapter; a vm rig has machine.lanes of them (1 in Rigs/vm.json). A scenario that restarts bluetoothd or floods it runs alone. On a small machine the lanes load each other: see Rigs/README.md before trusting verdicts from more than one.",
        valueName: "n"))
    var lanes = 1

    @Option(help: ArgumentHelp(
        "The transports to run every scenario on: ble, hid, tcp, udp, several (ble,udp), or all (each scenario on each).",
        discussion: "Default: each scenario's run.transport, else ble. ble: JSON commands over GATT; hid: 6-byte HID reports over the same service; tcp: the iPad design's TCP with Bonjour; udp: 5-byte UDP movement with a TCP control connection. A scenario whose run.transports leaves a transport out is reported not applicable there, never passed. tcp and udp need the rig's hosts (the vm rig has them; hil doctor checks).",
        valueName: "transport"))
    var transport: TransportChoice?

    @Option(help: PhoneOption.help)
    var phone = PhoneOption(PhoneChoice(stack: .bluez))

    @Option(help: ArgumentHelp(
        "Which scenarios keep their captures: always, failed (failed, inconclusive and error ones) or never.",
        discussion: "Each scenario is captured while it runs: every adapter's HCI traffic, the computer's and the phone's (hci.btsnoop, tcpdump on bluetooth-monitor) for ble and hid, the phone host's veth (network.pcap, tcpdump) for tcp and udp; at its end the uinput device's events (evdev.log) and, when it did not pass, a timeline of sends, packets, receipts, uinput writes and frames (timeline.json, opens in ui.perfetto.dev). Kept files are listed in results.json, linked from junit.xml and the HTML report (docs/results-format.md, \"Captures\").",
        valueName: "when"))
    var capture: CaptureMode = .failed

    @Option(parsing: .unconditional, help: ranges.maxFailures.help(
        "Stop the run once this many scenarios did not pass (the rest are not run; exit status 1).",
        discussion: "For a verdict alone (a mutant, a bisect), not for a report.", valueName: "n"))
    var maxFailures: Int?

    @Option(help: ArgumentHelp(
        "The hil executable whose `hil peripheral` is the computer under test (default: this hil).",
        discussion: "The phone, the verifier and the rig stay this hil's: the mutation runner (hil mutants) passes each mutant's build here. In the vm rig the guest sees this machine's files but /tmp and /run: give a path elsewhere.",
        valueName: "path"))
    var computer: String?

    @Option(help: .hidden)
    var hostName: String?

    /// The commit hil was built from, found outside the rig (where the source folder's git is) and passed in.
    @Option(help: .hidden)
    var commit: String?

    /// Every range is checked before a file is read or a rig is booted (`--timeout 0` is refused here, not in the guest).
    func validate() throws {
        try Self.ranges.repeats.check(repeats)
        try Self.ranges.lanes.check(lanes)
        if let sendJitter { try Self.ranges.sendJitter.check(sendJitter) }
        if let timeout { try Self.ranges.timeout.check(timeout) }
        if let maxFailures { try Self.ranges.maxFailures.check(maxFailures) }
        if let computer {
            guard computer.hasPrefix("/") else { throw ValidationError("--computer \(computer): give an absolute path (the run may go on inside a rig)") }
            guard FileManager.default.isExecutableFile(atPath: computer) else {
                throw ValidationError("--computer \(computer): no executable file there (a hil built with `swift build --product hil`)")
            }
            if computer.hasPrefix("/tmp/") || computer.hasPrefix("/run/") {
                throw ValidationError("--computer \(computer): the vm rig's guest has a /tmp and /run of its own and would not find it; put it elsewhere")
            }
        }
    }

    func run() async throws {
        let (all, catalog) = try ScenarioFiles.load(paths, command: "hil run")
        var scenarios = all
        if let filter {
            scenarios = scenarios.filter { $0.name.contains(filter) || $0.file.contains(filter) }
            guard !scenarios.isEmpty else { throw ValidationError("no scenario matches --filter \(filter)") }
        }
        if let baseline {
            // Checked before any rig comes up, so a wrong path costs nothing.
            do {
                _ = try RunResults.load(contentsOf: baseline)
            } catch {
                printError("hil run: --baseline: \(error)")
                throw ExitCause.invalidInput.exit
            }
        }
        if let shard {
            scenarios = scenarios.filter { shard.contains($0.file) }
            guard !scenarios.isEmpty else { throw ValidationError("shard \(shard) has no scenario (of \(all.count))") }
        }
        if list {
            print(CoverageListing.text(scenarios: scenarios, catalog: catalog, all: all, folders: paths))
            return
        }
        if phone.choice.stack == .bumble, let missing = PhoneOption.program(rigs: rigOptions.rigs).1 {
            // Before a rig boots: the guest sees this checkout's files and cannot install anything.
            printError("hil run: --phone bumble: \(missing)")
            throw ExitCause.noUsableRig.exit
        }
        if try RigOptions.insideRig() {
            try await runInside(scenarios)
        } else {
            // Outside a rig: bring the chosen one up and run this same command line inside it.
            let commit = self.commit ?? SourceRevision.probe(executable: Self.executable)
            try rigOptions.runInRig(output: output, timeout: timeout?.duration ?? .seconds(1800 * repeats),
                                    replacing: [("--host-name", hostName ?? ProcessInfo.processInfo.hostName)]
                                        + (commit.map { [("--commit", $0)] } ?? []), radio: radioOptions)
        }
    }

    /// Inside a rig: run every scenario (`RunSession`), and exit with its status.
    private func runInside(_ scenarios: [Scenario]) async throws {
        var (rigName, context) = try Self.rigContext(rigs: rigOptions.rigs, output: output, writePath: writePath)
        if let scratch = context.rig.scratch {
            // One folder per run: a scratch folder that outlives runs (a hardware box's) never mixes two runs' files.
            let folder = scratch + "/run-\(getpid())"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            context.scratch = ScratchFolder(path: folder, results: context.workDirectory)
        }
        context.failFast = failFast
        context.sendJitterMs = sendJitter
        if let computer { context.hil = computer }
        let stop = RunStop()
        context.stop = stop
        context.capture = capture
        defer { fflush(nil) }
        print("hil run: \(scenarios.count) scenario(s) on rig \(rigName) (latency scale \(context.latencyScale)), peripheral \(context.peripheralAdapter), central \(context.centralAdapter)")
        let lanes = try Self.laneContexts(context, requested: self.lanes)
        if lanes.count > 1 {
            print("hil run: \(lanes.count) lanes at once (\(lanes.map { "\($0.peripheralAdapter)+\($0.centralAdapter)" }.joined(separator: ", "))); a scenario that restarts or floods bluetoothd runs alone")
        }
        let writer = RunResultsWriter(
            environment: environment(rig: rigName, context, lanes: lanes.count), startedAt: Date(), start: .now,
            shard: shard.map { (index: $0.index, count: $0.count) }, folder: context.workDirectory)
        var settings = RunSession.Settings(
            plan: RunPlan(scenarios, repeats: repeats, choice: TransportChoice.plan(transport), unavailable: Self.unavailable(context),
                          phone: phone.choice),
            repeats: repeats, lanes: lanes,
            work: context.workDirectory, baseline: baseline, writer: writer, maxFailures: maxFailures)
        settings.bumble = try bumblePhones(settings.plan, latencyScale: context.latencyScale)
        // Live progress also when standard output is a file or a pipe (a CI log): every line is flushed.
        let quiet = self.quiet
        let console = RunSession.Console(
            line: { print($0); fflush(nil) }, details: { if !quiet { print($0); fflush(nil) } },
            problem: { printError($0); fflush(nil) })
        let session = RunSession(settings, stop: stop, console: console)
        // Ctrl-C: stop the peripheral under test, keep what was judged (written at once), exit 130.
        let interrupts = InterruptForwarder { session.interrupt() }
        defer { interrupts.cancel() }
        let exit = await session.run()
        if exit != .passed { throw exit.status.exit }
    }

    /// The run's Bumble phones when a scenario of `plan` runs on one (started as the first needs it).
    private func bumblePhones(_ plan: RunPlan, latencyScale: Double) throws -> BumblePhones? {
        guard plan.items.contains(where: { $0.scenario.run.phone.stack == .bumble && !$0.transport.isNetwork }) else { return nil }
        let (program, missing) = PhoneOption.program(rigs: rigOptions.rigs)
        guard let program, missing == nil else { throw ValidationError("--phone bumble: \(missing ?? "")") }
        return BumblePhones(program, latencyScale: latencyScale) { print($0); fflush(nil) }
    }

    /// The run's environment for results.json: kernel, BlueZ, rig, adapters, lanes, radio, build and commit.
    private func environment(rig: String, _ context: RunContext, lanes: Int) -> RunEnvironment {
        let facts = HostFacts.probe()
        let definition = (try? RigOptions.catalog(rigOptions.rigs))?.rigs.first { $0.name == rig }
        let radio = Self.radio(definition)
        return RunEnvironment(
            kernel: facts.kernelRelease, bluez: facts.bluetoothdVersion, rig: rig, latencyScale: context.latencyScale,
            peripheralAdapter: context.peripheralAdapter, centralAdapter: context.centralAdapter,
            host: hostName ?? ProcessInfo.processInfo.hostName, writePath: writePath?.rawValue, rigUpMs: Self.guestUptimeMs(),
            lanes: lanes, radio: radio.radio, radioModel: radio.radioModel, radioIntervalMs: radio.radioIntervalMs,
            radioErrorRate: radio.radioErrorRate,
            build: Self.buildConfiguration,
            commit: commit ?? SourceRevision.probe(executable: Self.executable), phone: phone.choice.description)
    }

    /// The transports the rig cannot carry: tcp and udp without the two network hosts (a hardware box; the vm rig's
    /// guest makes them).
    static func unavailable(_ context: RunContext) -> [Transport: String] {
        guard context.network == nil else { return [:] }
        let why = "this rig has no network hosts for the phone and the computer (HIL_NET_*, Rigs/net/two-hosts.sh, which needs root): tcp and udp run in the vm rig"
        return [.tcp: why, .udp: why]
    }

    /// The radio that carries ble and hid, as results.json and bench.json name it: the rig's controllers, and for
    /// emulated ones the radio model the rig started (`HIL_RADIO_MODEL`, which the vm rig sets from its rig file or
    /// `--radio-interval`), else the rig file's.
    static func radio(_ definition: RigDefinition?, environment: RigEnvironment? = try? RigOptions.environment()) -> RunEnvironment {
        guard let definition else { return RunEnvironment() }
        // A hardware rig rehearsed on a guest's controllers (`virtualAdapters`) runs over btvirt's radio all the same.
        guard definition.controllers == .btvirt || definition.virtualAdapters else {
            return RunEnvironment(radio: definition.controllers.rawValue)
        }
        let model = environment?.radio ?? definition.radio
        return RunEnvironment(radio: RigDefinition.Controllers.btvirt.rawValue, radioModel: model.model.rawValue,
                              radioIntervalMs: model.model == .connectionEvents ? model.intervalMs : nil,
                              radioErrorRate: model.model == .connectionEvents ? model.packetErrorRate : nil)
    }

    /// How this hil was built: results.json's `environment.build`.
    static var buildConfiguration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }

    /// In the vm rig, the guest's uptime: its boot and the rig's bring-up, before this run started.
    private static func guestUptimeMs() -> Double? {
        guard (try? RigOptions.environment())?.rig == "vm",
              let text = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
              let seconds = text.split(separator: " ").first.flatMap({ Double($0) })
        else { return nil }
        return seconds * 1000
    }

    /// Inside a rig: the running rig, built once from the environment the launcher set and the rig's file, in the
    /// context every scenario, bench, calibration and soak of the run is handed.
    static func rigContext(rigs: String?, output: String, writePath: WritePath?) throws -> (rig: String, context: RunContext) {
        let environment = try RigOptions.environment()
        let rigName = environment.rig ?? "?"
        let definition = (try? RigOptions.catalog(rigs))?.rigs.first { $0.name == rigName }
        let work = URL(fileURLWithPath: output).standardizedFileURL.path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        var context = RunContext(rig: environment.runningRig(definition), hil: executable, writePath: writePath, workDirectory: work)
        context.timing = timing(definition, radio: environment.radio)
        return (rigName, context)
    }

    /// The time rules of a run on `definition` (a rig file without `stageLimits` gets a real machine's): this build's
    /// limits, and the radio under ble and hid — the vm rig's model, a real radio at the rig's longest interval, or
    /// btvirt's, which delivers at once.
    static func timing(_ definition: RigDefinition?, radio: RigDefinition.Radio?) -> ScenarioDriver.Timing {
        let limits = (definition?.stageLimits ?? RigDefinition.StageLimits()).build(buildConfiguration)
        let model: StageRule.LinkModel? = switch (radio?.model, definition?.controllers) {
        case (.connectionEvents?, _): .radio(intervalMs: radio!.intervalMs, errorRate: radio!.packetErrorRate)
        case (.immediate?, _), (nil, .btvirt?): .radio(intervalMs: nil, errorRate: 0)
        case (nil, _): definition.map { .radio(intervalMs: $0.connection.maxIntervalMs, errorRate: 0) }
        }
        return ScenarioDriver.Timing(
            limits: StageRule.Limits(computerMedianMs: limits.computerMedianMs, computerMaxMs: limits.computerMaxMs, linkHostMs: limits.linkHostMs),
            stated: "the \(definition?.name ?? "unknown") rig's \(buildConfiguration) limits", radio: model)
    }

    /// The context of each lane to use: the first `requested` of the rig's lanes.
    static func laneContexts(_ context: RunContext, requested: Int) throws -> [RunContext] {
        let available = context.rig.lanes
        if requested > available.count {
            throw ValidationError("--lanes \(requested): this rig has \(available.count) (\(available.map(\.description).joined(separator: ", "))); machine.lanes in the vm rig's file sets how many")
        }
        return (0..<requested).map { context.lane($0, of: requested) }
    }

    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// Set once from a signal handler, read by the run loop.
final class InterruptFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    /// Sets the flag; true only for the call that set it first.
    func setFirst() -> Bool { flag.withLock { was in defer { was = true }; return !was } }
    var isSet: Bool { flag.withLock { $0 } }
}
