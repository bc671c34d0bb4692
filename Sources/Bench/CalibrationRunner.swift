import Foundation
import LatencyStats
package import Records
package import RunContext
import ScenarioDriver
import StrictJSON

/// `hil calibrate`: proves the latency measurement against known delays. For each transport it streams cursor
/// commands, as `hil bench` does, once per injected delay, and shows that the measured p50 moves by the delay.
///
/// Each transport's delay goes where `DelayInjector` says: netem on the phone host's interface for tcp and udp, the
/// vm rig's radio model (its bridges' extra delay) for ble and hid. Against the radio's periodic connection events the
/// sends are dithered (`SendSchedule`), so they meet the events at even phases.
///
/// The rounds take the delays in turn (round r starts at the r-th delay), so a drift in the guest's speed over the
/// run falls on every delay alike; each delay's streams are pooled.
package struct CalibrationRunner: Sendable {
    package struct Settings: Sendable {
        package var transports: [String] = ["tcp", "udp"]
        /// Each injected delay in ms; 0 (the baseline) is measured whether or not it is listed.
        package var delaysMs: [Double] = [0, 5, 20]
        /// Commands per transport, delay and round.
        package var count = 300
        package var rounds = 3
        package var rateHz = 100.0
        /// Dither the sends of the transports the radio model delays (`--regular-pace` turns it off, to compare).
        package var ditherRadio = true
        package init() {}
    }

    package let context: RunContext
    package let settings: Settings

    package init(context: RunContext, settings: Settings) {
        self.context = context
        self.settings = settings
    }

    /// The delays in the order round `round` (from 0) takes them, the baseline included.
    package static func order(_ delays: [Double], round: Int) -> [Double] {
        let all = ([0] + delays).reduce(into: [Double]()) { if !$0.contains($1) { $0.append($1) } }.sorted()
        let start = round % all.count
        return Array(all[start...] + all[..<start])
    }

    /// Runs every transport at every delay; `progress` gets a line per stream. Returns the rows (each transport's
    /// delays in ascending order), how each transport's delay was injected, and each stream that ended with a key
    /// or button held (`BenchRunner.held`'s form), which fails the calibration.
    package func run(progress: @Sendable (String) -> Void) async throws
        -> (rows: [CalibrationResults.Row], injection: [String: String], held: [String])
    {
        let injectors = try Dictionary(uniqueKeysWithValues: settings.transports.map { transport in
            (transport, try DelayInjector.make(for: transport, context: context))
        })
        let folder = context.workDirectory + "/calibrate"
        let networks = settings.transports.filter { $0 == "tcp" || $0 == "udp" }
        let session = try await PairedSession.open(context, folder: folder, networks: networks)

        var benchSettings = BenchRunner.Settings()
        benchSettings.rateHz = settings.rateHz
        let bench = BenchRunner(context: context, settings: benchSettings)
        var sends: [StageBreakdown.Send] = []
        let runs: [(transport: String, delay: Double, run: BenchRunner.StreamRun)]
        do {
            runs = try await streams(session, injectors: injectors, bench: bench, folder: folder, sends: &sends, progress: progress)
        } catch {
            // The delays go first: the bridges outlive the run, and the next must not inherit one.
            for injector in injectors.values { await injector.clear() }
            await session.close(erred: true)
            throw error
        }
        for problem in await session.close() { progress("teardown: \(problem)") }
        let evidence = BenchRunner.evidence(sends: sends, computer: session.computer)
        let streams = runs.map { entry in (entry.transport, entry.delay, bench.analyse(entry.run, path: entry.transport, evidence: evidence)) }
        let held = streams.filter { !$0.2.heldAtEnd.isEmpty }
            .map { "\($0.0) with \(DelayInjector.milliseconds($0.1)) injected: \($0.2.heldAtEnd.joined(separator: ", "))" }
        return (Self.rows(streams, transports: settings.transports), injectors.mapValues { $0.description + pace(of: $0) }, held)
    }

    /// Each transport's streams, every delay in each round (each delay confirmed by the radio's bridges before its
    /// stream), the transport's delay taken away after them.
    private func streams(_ session: PairedSession, injectors: [String: DelayInjector], bench: BenchRunner, folder: String,
                         sends: inout [StageBreakdown.Send], progress: @Sendable (String) -> Void) async throws
        -> [(transport: String, delay: Double, run: BenchRunner.StreamRun)]
    {
        var runs: [(transport: String, delay: Double, run: BenchRunner.StreamRun)] = []
        for transport in settings.transports {
            let injector = injectors[transport]!
            // ble streams over the AcquireWrite socket, as hil bench's fd path.
            let sender = try await BenchSender.open(transport == "ble" ? "fd" : transport, settings: bench.settings, session: session,
                                                    folder: folder, context: context)
            defer { sender.close() }
            for round in 0..<settings.rounds {
                for delay in Self.order(settings.delaysMs, round: round) {
                    try await injector.apply(delay)
                    let run = try await bench.stream(rate: settings.rateHz, count: settings.count, dither: dither(injector),
                                                     sender: sender, computer: session.computer, sends: &sends)
                    runs.append((transport, delay, run))
                    progress("\(transport), \(DelayInjector.milliseconds(delay)) injected, round \(round + 1)/\(settings.rounds): sent \(run.count), achieved \(String(format: "%.0f", run.achievedHz)) Hz")
                }
            }
            await injector.clear()
        }
        return runs
    }

    /// The seed of a transport's dithered sends, or nil: regular.
    func dither(_ injector: DelayInjector) -> UInt64? { settings.ditherRadio ? injector.sendDither : nil }

    /// How the transport's sends were paced, for calibrate.json's `injection`.
    func pace(of injector: DelayInjector) -> String {
        let interval = JSONWriter.numberText(1000 / settings.rateHz)
        return dither(injector) == nil
            ? "; sends every \(interval) ms"
            : "; sends dithered: each at a uniform offset within its \(interval) ms slot, so they meet the connection events at even phases"
    }

    /// Each transport's streams pooled per delay, ascending, with each delay's shift from its baseline.
    package static func rows(_ streams: [(transport: String, delay: Double, stream: BenchRunner.Stream)], transports: [String])
        -> [CalibrationResults.Row]
    {
        transports.flatMap { transport -> [CalibrationResults.Row] in
            let mine = streams.filter { $0.transport == transport }
            let delays = Set(mine.map(\.delay)).sorted()
            func pooled(_ delay: Double) -> (sent: Int, samples: [Double], link: [Double?]) {
                let these = mine.filter { $0.delay == delay }.map(\.stream)
                return (these.map(\.sent).reduce(0, +), these.flatMap(\.latencySamples), these.map { $0.stages["link"]?.p50 })
            }
            let baseline = pooled(0).samples
            return delays.map { delay in
                let (sent, samples, links) = pooled(delay)
                let p50 = PercentileInterval.of(samples, percentiles: [50], resamples: 0).first?.value
                let shift = delay == 0 ? nil : MedianShift.of(baseline: baseline, shifted: samples)
                return CalibrationResults.Row(
                    transport: transport, injectedMs: delay, sent: sent, verified: samples.count, p50Ms: p50,
                    linkP50Ms: Spread(links.compactMap { $0 })?.median,
                    shiftP50Ms: shift?.shift, shiftLowMs: shift?.low, shiftHighMs: shift?.high)
            }
        }
    }
}
