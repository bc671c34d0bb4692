import ScenarioDriver
import ArgumentParser
import Foundation
import Records
import Report
import Rig
import Runner
import Scenario
import Synchronization
import ComputerProcess
import Evidence

/// Replays scenarios through a real BLE link and checks what comes out of uinput.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios over a real BLE link on a rig and check the uinput events they cause.",
        discussion: """
            Every file is loaded and checked first (as hil validate). Then the rig comes up once (--rig auto:
            hardware, else virtual, else vm; in the vm rig, hil itself runs inside the guest) and each scenario
            runs with a fresh hil peripheral on the peripheral adapter, the phone's gesture model driven in real
            time on the central adapter, and the uinput device's frames judged step by step.
            Results in --output: results.json (docs/results-format.md), junit.xml, report.html and summary.md
            (docs/report.md), and each scenario's logs. --list shows the requirement coverage instead of running.
            Exit status 0 only when every scenario passed; 1 when one did not; 125 when the rig broke during the run
            (an adapter that no longer powers on: the run stops there, as every later scenario could only error,
            and keeps its results); 130 when interrupted; 124 when over --timeout (vm rig).
            """
    )

    @Argument(help: "Scenario files, or folders searched recursively for *.json.")
    var paths: [String] = ["Scenarios"]

    @OptionGroup var rigOptions: RigOptions

    @Option(help: ArgumentHelp("Where results.json, junit.xml and the logs go.", valueName: "dir"))
    var output = "results"

    @Option(help: "Run only scenarios whose name or file contains this text.")
    var filter: String?

    @Option(help: ArgumentHelp(
        "Override every scenario's write path: dbus (WriteValue) or fd (AcquireWrite).", valueName: "path"))
    var writePath: RunSettings.WritePath?

    @Option(help: ArgumentHelp("Stop the whole run after this many seconds (exit status 124); default 1800 per repeat.",
                               valueName: "seconds"))
    var timeout: Int?

    @Option(help: ArgumentHelp(
        "Run only slice i of n (1 ≤ i ≤ n), e.g. 2/3, so a CI matrix can split the suite across boxes.",
        discussion: "A scenario's slice depends only on its file path, so it stays in its slice as the suite grows; merge the slices' results.json with hil report.",
        valueName: "i/n"))
    var shard: Shard?

    @Option(help: ArgumentHelp(
        "An earlier run's results.json: flag gesture kinds whose p95 latency regressed (docs/report.md has the rule).",
        valueName: "file"))
    var baseline: String?

    @Option(name: .customLong("repeat"), help: ArgumentHelp(
        "Run the scenarios this many times in one rig session and print a stability table.",
        discussion: "A scenario whose verdict differs between repeats is reported as flaky in results.json (stability) and junit.xml.",
        valueName: "n"))
    var repeats = 1

    @Flag(help: "List the scenarios and the requirement coverage (requirements.json) without running anything.")
    var list = false

    @Flag(help: ArgumentHelp(
        "End each scenario at its first failed step.",
        discussion: "The steps after it are reported as not run. Quicker when only the verdict matters (mutation tests, a first look at a broken build)."))
    var failFast = false

    @Option(help: ArgumentHelp(
        "Run this many scenarios at once, one per lane of the rig (default 1).",
        discussion: "A lane is a computer adapter and a phone adapter; a vm rig has machine.lanes of them (1 in Rigs/vm.json). A scenario that restarts bluetoothd or floods it runs alone. On a small machine the lanes load each other: see Rigs/README.md before trusting verdicts from more than one.",
        valueName: "n"))
    var lanes: Int?

    @Option(help: ArgumentHelp(
        "The transports to run every scenario on: ble, hid, tcp, udp, several (ble,udp), or all (each scenario on each).",
        discussion: "Default: each scenario's run.transport, else ble. ble: JSON commands over GATT; hid: 6-byte HID reports over the same service; tcp: the iPad design's TCP with Bonjour; udp: 5-byte UDP movement with a TCP control connection. A scenario whose run.transports leaves a transport out is reported not applicable there, never passed. tcp and udp need the rig's hosts (the vm rig has them; hil doctor checks).",
        valueName: "transport"))
    var transport: TransportChoice?

    @Option(help: ArgumentHelp(
        "Which scenarios keep their captures: always, failed (failed, inconclusive and error ones) or never.",
        discussion: "Each scenario is captured while it runs: every adapter's HCI traffic, the computer's and the phone's (hci.btsnoop, btmon) for ble and hid, the phone host's veth (network.pcap, tcpdump) for tcp and udp; at its end the uinput device's events (evdev.log) and, when it did not pass, a timeline of sends, packets, receipts, uinput writes and frames (timeline.json, opens in ui.perfetto.dev). Kept files are listed in results.json, linked from junit.xml and the HTML report (docs/results-format.md, \"Captures\").",
        valueName: "when"))
    var capture: CaptureMode = .failed

    @Option(help: .hidden)
    var hostName: String?

    func validate() throws {
        if repeats < 1 || repeats > 1000 { throw ValidationError("--repeat takes 1 to 1000, not \(repeats)") }
        if let lanes, lanes < 1 { throw ValidationError("--lanes takes 1 or more, not \(lanes)") }
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
                throw ExitCode.failure
            }
        }
        if let shard {
            scenarios = scenarios.filter { shard.contains($0.file) }
            guard !scenarios.isEmpty else { throw ValidationError("shard \(shard) has no scenario (of \(all.count))") }
        }
        if list {
            print(CoverageListing.text(scenarios: scenarios, catalog: catalog, all: all))
            return
        }
        if try RigOptions.insideRig() {
            try await runInside(scenarios)
        } else {
            // Outside a rig: bring the chosen one up and run this same command line inside it.
            try rigOptions.runInRig(output: output, timeout: .seconds(timeout ?? 1800 * repeats),
                                    replacing: [("--host-name", hostName ?? ProcessInfo.processInfo.hostName)])
        }
    }

    /// How long a scenario under way may take to end after an interrupt (cancelled, then torn down: a second or two;
    /// see `RunStop.run`), inside the vm rig's 30 s for an interrupted job.
    static let interruptGrace: Duration = .seconds(10)

    /// Inside a rig: run every scenario.
    private func runInside(_ scenarios: [Scenario]) async throws {
        var (rigName, context) = try Self.rigContext(rigs: rigOptions.rigs, output: output, writePath: writePath)
        if let scratch = try RigOptions.environment().scratch {
            // One folder per run: a scratch folder that outlives runs (a hardware box's) never mixes two runs' files.
            let folder = scratch + "/run-\(getpid())"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            context.scratch = ScratchFolder(path: folder, results: context.workDirectory)
        }
        context.failFast = failFast
        // Ctrl-C: stop the peripheral under test, keep what was judged (written at once), exit 130. A rig that
        // broke (an adapter that no longer powers on) stops the run too: every later scenario could only error.
        let stopping = RunStop()
        context.stop = stopping
        context.capture = capture
        let work = context.workDirectory
        defer { fflush(nil) }
        print("hil run: \(scenarios.count) scenario(s) on rig \(rigName) (latency scale \(context.latencyScale)), peripheral \(context.peripheralAdapter), central \(context.centralAdapter)")
        let lanes = try Self.laneContexts(context, requested: self.lanes)
        if lanes.count > 1 {
            print("hil run: \(lanes.count) lanes at once (\(lanes.map { "\($0.peripheralAdapter)+\($0.centralAdapter)" }.joined(separator: ", "))); a scenario that restarts or floods bluetoothd runs alone")
        }
        let pool = LanePool(lanes: lanes)
        let writer = RunResultsWriter(
            environment: environment(rig: rigName, context, lanes: lanes.count), startedAt: Date(), start: .now,
            shard: shard.map { (index: $0.index, count: $0.count) }, folder: work)
        // Written as the run goes (LiveResults), at once on Ctrl-C, and at the end.
        let live = LiveResults(write: { try writer.write($0) }, report: { printError("hil run: the results so far could not be written (the run goes on): \($0)") })
        let interrupts = InterruptForwarder {
            guard stopping.interrupt() else { return }
            PeripheralUnderTest.interruptAll()
            do {
                try live.writeNow()
            } catch {
                printError("hil run: the results so far could not be written: \(error)")
            }
        }
        defer { interrupts.cancel() }
        let plan = RunPlan(scenarios, repeats: repeats, choice: TransportChoice.plan(transport))
        let total = plan.perRepeat * repeats
        for (number, result) in plan.notApplicable {
            live.add(result, number: number)
            print("[\((number - 1) % plan.perRepeat + 1)/\(plan.perRepeat)] NOT APPLICABLE \(result.name): \(result.message)")
        }
        let (count, repeats) = (plan.perRepeat, repeats)
        let announce: @Sendable (LanePool.Item, ScenarioResult) -> Void = { item, finished in
            var result = finished
            result.repetition = item.repetition
            let label = repeats > 1 ? "[repeat \(item.repetition)/\(repeats), \(item.index + 1)/\(count)]" : "[\(item.index + 1)/\(count)]"
            if stopping.wasInterrupted {
                print("\(label) INTERRUPTED \(item.scenario.name)")
            } else {
                live.add(result, number: item.number)
                Self.printOutcome(result, label: label)
                if let broken = stopping.note(result) {
                    printError("hil run: the rig broke: \(broken); stopping the run, as every later scenario could only error")
                }
            }
            // Live progress also when standard output is a file or a pipe (a CI log): flush every stream.
            fflush(nil)
        }
        // A computer started ahead for a scenario that will not run now (interrupted, rig broken) is stopped by the pool.
        let ended = await stopping.run({ await pool.run(plan.items, stop: { stopping.isStopping }, finished: announce) },
                                       grace: Self.interruptGrace)
        if !ended {
            printError("hil run: the scenario under way did not end within \(Self.interruptGrace) of the interrupt (a D-Bus call BlueZ did not answer, or its teardown); it is left behind, not kept")
        }
        for problem in context.scratch?.finish() ?? [] { printError("hil run: \(problem)") }
        try conclude(live: live, wallMs: writer.wallMs, stopping: stopping, total: total, work: work)
    }

    /// The run's end: the results written a last time, the reports, the tables and totals, and the exit status
    /// (130 interrupted, 125 the rig broke, 1 a scenario did not pass).
    private func conclude(live: LiveResults, wallMs: Double, stopping: RunStop, total: Int, work: String) throws {
        let results = live.results
        // After an interrupt the file already holds every result (written at once), unless that write failed.
        try live.writeNow(final: true, unlessCurrent: stopping.wasInterrupted)
        var comparison: BaselineComparison?
        do {
            try ReportFiles.write(nextTo: work + "/results.json", baselineFile: baseline)
            if let baseline {
                comparison = BaselineComparison(
                    current: try RunResults.load(contentsOf: work + "/results.json"), baseline: try RunResults.load(contentsOf: baseline))
            }
        } catch {
            printError("hil run: the report could not be written: \(error)")
        }
        Self.printTables(results, repeats: repeats)
        let outcomes = results.map(\.outcome.record)
        let failed = outcomes.filter(\.isFailure).count
        print(RunTotals.line(outcomes) + " in \(String(format: "%.1f", wallMs / 1000)) s")
        if let comparison { Self.printBaseline(comparison) }
        print("results: \(work)/results.json, \(work)/junit.xml, \(work)/\(ReportFiles.htmlName), \(work)/\(ReportFiles.markdownName)")
        if stopping.wasInterrupted {
            print("interrupted: \(total - results.count) scenario run(s) not done")
            throw ExitCode(130)
        }
        if let broken = stopping.rigFailure {
            printError(Self.rigBrokenMessage(broken, notDone: total - results.count, results: work))
            throw ExitCode(125)
        }
        if failed > 0 { throw ExitCode.failure }
    }

    /// The run's environment for results.json: kernel, BlueZ, rig, adapters, lanes.
    private func environment(rig: String, _ context: ScenarioRunner.Context, lanes: Int) -> RunEnvironment {
        let facts = HostFacts.probe()
        var environment = RunEnvironment(
            kernel: facts.kernelRelease, bluez: facts.bluetoothdVersion, rig: rig, latencyScale: context.latencyScale,
            peripheralAdapter: context.peripheralAdapter, centralAdapter: context.centralAdapter,
            host: hostName ?? ProcessInfo.processInfo.hostName, writePath: writePath?.rawValue, rigUpMs: Self.guestUptimeMs())
        environment.lanes = lanes
        return environment
    }

    /// In the vm rig, the guest's uptime: its boot and the rig's bring-up, before this run started.
    private static func guestUptimeMs() -> Double? {
        guard (try? RigOptions.environment())?.rig == "vm",
              let text = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
              let seconds = text.split(separator: " ").first.flatMap({ Double($0) })
        else { return nil }
        return seconds * 1000
    }

    /// Why the run stopped early when its rig broke, and what to do about it.
    static func rigBrokenMessage(_ broken: String, notDone: Int, results: String) -> String {
        """
        hil run: stopped because the rig broke: \(broken). \(notDone) scenario run(s) not done; the results so far \
        are in \(results) (the scenario that broke it is an error there, with its message).
          → the rig needs a restart: in the vm rig, run again (each run boots a fresh guest; the guest's dmesg and \
        btvirt log are in rig-logs); on a box, `bluetoothctl show`, `rfkill list` and dmesg say why, and restarting \
        bluetoothd or re-plugging the controller brings it back (exit status 125)
        """
    }

    /// One scenario's line, and the details of one that did not pass.
    private static func printOutcome(_ result: ScenarioResult, label: String) {
        let p95 = result.latencySummary.p95.map { String(format: "p95 %.1f ms", $0) } ?? "no latency"
        print("\(label) \(result.outcome.rawValue.uppercased()) \(result.name) — \(result.steps.filter { $0.outcome != .unchecked }.count) checked steps, \(p95), \(String(format: "%.1f", result.durationMs / 1000)) s")
        if result.outcome.record.isFailure {
            print(RunReport.detail(result).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
        }
    }

    /// The table per scenario, the one per step kind and, with --repeat, the stability table.
    private static func printTables(_ results: [ScenarioResult], repeats: Int) {
        print("")
        print("outcome       p50 ms   p95 ms   max ms  scenario")
        for result in results {
            let summary = result.latencySummary
            let cells = [summary.p50, summary.p95, summary.max].map { $0.map { String(format: "%8.1f", $0) } ?? "       -" }
            print("\(result.outcome.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(cells.joined(separator: " ")) \(result.name)")
        }
        print("")
        print(RunReport.kindTable(results))
        if let transports = RunReport.transportTable(results) {
            print("")
            print(transports)
        }
        let time = PhaseBreakdown(ScenarioResult.records(results))
        if time.scenarios > 0 {
            print("")
            print("where the time went: \(time.summaryLine)")
            print(time.table)
        }
        if repeats > 1 {
            print("")
            print(RunReport.stabilityTable(results))
        }
    }

    /// Which gesture kinds regressed against --baseline.
    private static func printBaseline(_ comparison: BaselineComparison) {
        let regressed = comparison.regressions
        print(regressed.isEmpty
            ? "baseline: no gesture kind regressed (\(BaselineComparison.ruleText))"
            : "baseline: REGRESSED " + regressed.map { kind in
                "\(kind.kind) p95 \(kind.baseline?.p95.map { String(format: "%.1f", $0) } ?? "-") → \(kind.current?.p95.map { String(format: "%.1f", $0) } ?? "-") ms"
            }.joined(separator: "; "))
    }

    /// Inside a rig: where things are, from the rig's environment and its rig file.
    static func rigContext(rigs: String?, output: String, writePath: RunSettings.WritePath?) throws -> (rig: String, context: ScenarioRunner.Context) {
        let environment = try RigOptions.environment()
        let rigName = environment.rig ?? "?"
        let definition = (try? RigOptions.catalog(rigs))?.rigs.first { $0.name == rigName }
        let work = URL(fileURLWithPath: output).standardizedFileURL.path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let context = ScenarioRunner.Context(
            hil: executable, peripheralAdapter: environment.peripheralAdapter, centralAdapter: environment.centralAdapter,
            uinputName: definition?.uinputDeviceName ?? "RemoteTouch HIL Virtual Input",
            latencyScale: definition?.latencyScale ?? 1, writePath: writePath, workDirectory: work)
        var result = context
        result.emulatedControllers = definition?.controllers == .btvirt
        result.network = environment.network.map(NetworkHosts.init)
        return (rigName, result)
    }

    /// The context of each lane to use: the first `requested` (1 unless asked) of the rig's lanes.
    static func laneContexts(_ context: ScenarioRunner.Context, requested: Int?) throws -> [ScenarioRunner.Context] {
        let available = try RigOptions.environment().lanes
        if let requested, requested > available.count {
            throw ValidationError("--lanes \(requested): this rig has \(available.count) (\(available.map(\.description).joined(separator: ", "))); machine.lanes in the vm rig's file sets how many")
        }
        let lanes = Array(available.prefix(requested ?? 1))
        return lanes.indices.map { context.lane($0, of: lanes) }
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
