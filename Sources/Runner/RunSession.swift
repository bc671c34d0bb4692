package import RunContext
import Evidence
package import BumblePhone
import Foundation
import Records
import Report

/// One `hil run` inside a rig that is up: the plan over the lanes, the results written as the run goes, the stop
/// (an interrupt or a broken rig), the reports and tables at the end, and the exit status (`RunExit`). The
/// executable parses options, builds the session, forwards signals to `interrupt()` and exits with what `run`
/// returns.
package final class RunSession: Sendable {
    package struct Settings: Sendable {
        package var plan: RunPlan
        package var repeats: Int
        /// One context per lane (adapters, uinput name), each with the run's write path, capture mode, stop…
        package var lanes: [RunContext]
        /// results.json, junit.xml, the reports: the work directory of the lanes' contexts.
        package var work: String
        /// An earlier run's results.json to compare each gesture kind's p95 with.
        package var baseline: String?
        package var writer: RunResultsWriter
        /// Stop taking scenarios once this many did not pass (`hil run --max-failures`); nil: run them all.
        package var maxFailures: Int?
        /// The run's Bumble phones (`hil run --phone bumble`), closed at the run's end; nil: the BlueZ phone only.
        package var bumble: BumblePhones?

        package init(plan: RunPlan, repeats: Int, lanes: [RunContext], work: String, baseline: String?,
                     writer: RunResultsWriter, maxFailures: Int? = nil)
        {
            self.maxFailures = maxFailures
            self.plan = plan
            self.repeats = repeats
            self.lanes = lanes
            self.work = work
            self.baseline = baseline
            self.writer = writer
        }
    }

    /// Where the session's lines go: the run's progress (a line per scenario, the totals), the details (why a
    /// scenario did not pass, the tables; `hil run --quiet` drops them), and problems (standard error).
    package struct Console: Sendable {
        package var line: @Sendable (String) -> Void
        package var details: @Sendable (String) -> Void
        package var problem: @Sendable (String) -> Void

        /// - Parameter details: where the details go; nil: with the lines.
        package init(line: @escaping @Sendable (String) -> Void, details: (@Sendable (String) -> Void)? = nil,
                     problem: @escaping @Sendable (String) -> Void)
        {
            self.line = line
            self.details = details ?? line
            self.problem = problem
        }
    }

    /// How long a scenario under way may take to end after an interrupt (cancelled, then torn down: a second or two;
    /// see `RunStop.run`), inside the vm rig's 30 s for an interrupted job.
    package static let interruptGrace: Duration = .seconds(10)

    package let settings: Settings
    package let stop: RunStop
    let console: Console
    /// Written as the run goes, at once on an interrupt, and at the end.
    let live: LiveResults

    /// - Parameter stop: the lanes' contexts' stop (`RunContext.stop`), which this session decides.
    package init(_ settings: Settings, stop: RunStop, console: Console) {
        self.settings = settings
        self.stop = stop
        self.console = console
        let writer = settings.writer
        live = LiveResults(write: { try writer.write($0) }, report: {
            console.problem("hil run: the results so far could not be written (the run goes on): \($0)")
        })
    }

    /// Ctrl-C, SIGTERM, SIGHUP: the computers under test stop, what was judged is written at once, and the scenario
    /// under way is cancelled; `run` then returns `.interrupted`.
    package func interrupt() {
        guard stop.interrupt() else { return }
        do {
            try live.writeNow()
        } catch {
            console.problem("hil run: the results so far could not be written: \(error)")
        }
    }

    /// Runs the plan and ends the run: results written a last time, the reports, the tables and totals.
    package func run() async -> RunExit {
        let plan = settings.plan
        let total = plan.perRepeat * settings.repeats
        for (number, result) in plan.notApplicable {
            live.add(result, number: number)
            console.line("[\((number - 1) % plan.perRepeat + 1)/\(plan.perRepeat)] NOT APPLICABLE \(result.name): \(result.message)")
        }
        // One capture process per tool for the whole run; each scenario that keeps its captures cuts its window.
        let capture = await startCapture()
        let pool = LanePool(lanes: settings.lanes.map { lane in
            var lane = lane
            lane.runCapture = capture
            return lane
        }, bumble: settings.bumble)
        // A computer started ahead for a scenario that will not run now (interrupted, rig broken) is stopped by the pool.
        let ended = await stop.run({ [self] in
            await pool.run(plan.items, stop: { [stop] in stop.isStopping }, finished: announce)
        }, grace: Self.interruptGrace)
        // The Bumble phones give their adapters back before the capture stops, so it sees them go (and btmon 5.66,
        // the capture tool before tcpdump, segfaulted when stopped with an adapter still on the HCI user channel).
        await settings.bumble?.stopAll()
        for problem in await capture?.stop() ?? [] { console.problem("hil run: \(problem)") }
        if !ended {
            console.problem("hil run: the scenario under way did not end within \(Self.interruptGrace) of the interrupt (a D-Bus call BlueZ did not answer, or its teardown); it is left behind, not kept")
        }
        for problem in settings.lanes.first?.scratch?.finish() ?? [] { console.problem("hil run: \(problem)") }
        return conclude(total: total)
    }

    /// The run's capture tools for the transports its scenarios run on, in the scratch folder when the rig has one
    /// (a local file system), else beside the results; nil when the run captures nothing.
    private func startCapture() async -> RunCapture? {
        guard let lane = settings.lanes.first, lane.capture != .never, !settings.plan.items.isEmpty else { return nil }
        let folder = (lane.scratch?.path ?? settings.work) + "/run-capture"
        return await RunCapture.start(
            lane.capture, transports: Set(settings.plan.items.map(\.transport)), folder: folder, adapter: lane.peripheralAdapter,
            phoneNetns: lane.network?.phoneNetns)
    }

    /// A scenario finished: its line, kept in the results, and a rig it broke stops the run.
    private func announce(_ item: LanePool.Item, _ finished: ScenarioResult) {
        var result = finished
        result.repetition = item.repetition
        let (count, repeats) = (settings.plan.perRepeat, settings.repeats)
        let label = repeats > 1 ? "[repeat \(item.repetition)/\(repeats), \(item.index + 1)/\(count)]" : "[\(item.index + 1)/\(count)]"
        if stop.wasInterrupted {
            console.line("\(label) INTERRUPTED \(item.scenario.name)")
            return
        }
        live.add(result, number: item.number)
        console.line(RunConsole.outcome(result, label: label))
        if let reason = RunConsole.reason(result) { console.line(reason) }
        if let details = RunConsole.details(result) { console.details(details) }
        if let broken = stop.note(result) {
            console.problem("hil run: the rig broke: \(broken); stopping the run, as every later scenario could only error")
        }
        if stop.noteFailure(result, limit: settings.maxFailures) {
            console.line("hil run: \(settings.maxFailures ?? 0) scenario(s) did not pass: stopping the run (--max-failures)")
        }
    }

    /// The run's end: the results written a last time, the reports, the tables and totals, and the exit status.
    private func conclude(total: Int) -> RunExit {
        let results = live.results
        let work = settings.work
        do {
            // After an interrupt the file already holds every result (written at once), unless that write failed.
            try live.writeNow(final: true, unlessCurrent: stop.wasInterrupted)
        } catch {
            console.problem("hil run: results.json could not be written in \(work): \(error)")
            return .failed
        }
        var comparison: BaselineComparison?
        do {
            try ReportFiles.write(nextTo: work + "/results.json", baselineFile: settings.baseline)
            if let baseline = settings.baseline {
                comparison = BaselineComparison(
                    current: try RunResults.load(contentsOf: work + "/results.json"), baseline: try RunResults.load(contentsOf: baseline))
            }
        } catch {
            console.problem("hil run: the report could not be written: \(error)")
        }
        console.details(RunConsole.tables(results, repeats: settings.repeats))
        let outcomes = results.map(\.outcome)
        console.line(RunTotals.line(outcomes) + " in \(String(format: "%.1f", settings.writer.wallMs / 1000)) s")
        if let comparison { console.line(RunConsole.baseline(comparison)) }
        if let line = settings.lanes.first?.rig.resultsLine(["results.json", "junit.xml", ReportFiles.htmlName, ReportFiles.markdownName], in: work) {
            console.line(line)
        }
        let exit = RunExit(interrupted: stop.wasInterrupted, rigBroken: stop.rigFailure != nil,
                           failures: outcomes.filter(\.isFailure).count)
        switch exit {
        case .interrupted: console.line("interrupted: \(total - results.count) scenario run(s) not done")
        case .failed where stop.reason == .enoughFailures(settings.maxFailures ?? 0):
            console.line("stopped after \(settings.maxFailures ?? 0) scenario(s) that did not pass (--max-failures): \(total - results.count) scenario run(s) not done")
        case .rigBroken: console.problem(RunConsole.rigBroken(stop.rigFailure ?? "?", notDone: total - results.count, results: work))
        case .passed, .failed: break
        }
        return exit
    }
}
