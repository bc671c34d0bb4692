import Foundation
import InputCodes
package import LatencyStats
import PhoneLinks
package import Records
import Rig
package import Runner
import ScenarioDriver

/// `hil calibrate`: proves the latency measurement against known delays. For each transport it streams cursor
/// commands, as `hil bench` does, once per injected delay, and shows that the measured p50 moves by the delay.
///
/// tcp and udp are delayed by the kernel's netem on the phone host's interface, where every packet to the computer
/// leaves (egress; netem delays only what leaves an interface, so on the computer's it would delay only its
/// answers). The undelayed baseline runs with `netem delay 0ms` in place, so both pass the same qdisc. ble and hid
/// need a fixed delay in the radio between the two controllers, which the vm rig's emulated radio does not have
/// yet: they are refused with that reason.
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
        package init() {}
    }

    /// The transports a delay can be injected into on this build, and why the others cannot.
    package static let injectable = ["tcp", "udp"]
    package static func refusal(_ transport: String) -> String? {
        guard !injectable.contains(transport) else { return nil }
        return ["ble", "hid"].contains(transport)
            ? "\(transport): a delay on the BLE link needs the radio model's fixed extra delay between the two controllers, which the vm rig's emulated radio does not have yet; calibrate tcp and udp"
            : "\(transport) is not a transport (ble, hid, tcp, udp)"
    }

    package let context: ScenarioRunner.Context
    package let settings: Settings

    package init(context: ScenarioRunner.Context, settings: Settings) {
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
    /// delays in ascending order) and how each transport's delay was injected.
    package func run(progress: @Sendable (String) -> Void) async throws -> (rows: [CalibrationResults.Row], injection: [String: String]) {
        for transport in settings.transports {
            if let refusal = Self.refusal(transport) { throw RunnerError(.wrongTransport, refusal) }
        }
        let hosts = try context.networkHosts(for: "hil calibrate on \(settings.transports.joined(separator: " and "))")
        let interface = try TCPPhoneLink.vethInterface(in: hosts.phoneNetns)
        let folder = context.workDirectory + "/calibrate"
        let session = try await PairedSession.open(context, folder: folder, networks: settings.transports)
        let (bluez, peripheral, collector, link) = (session.bluez, session.peripheral, session.collector, session.link)
        defer { peripheral.stopBlocking() }
        defer { collector.stop() }
        defer { Task { [bluez] in try? await bluez.forget(link) } }
        defer { try? Netem.apply(nil, on: interface, in: hosts.phoneNetns) }

        var benchSettings = BenchRunner.Settings()
        benchSettings.rateHz = settings.rateHz
        let bench = BenchRunner(context: context, settings: benchSettings)
        var sends: [StageBreakdown.Send] = []
        var runs: [(transport: String, delay: Double, run: BenchRunner.StreamRun)] = []
        for transport in settings.transports {
            let sender = try await BenchSender.open(transport, settings: benchSettings, bluez: bluez, link: link, folder: folder,
                                                    context: context, peripheral: peripheral)
            defer { sender.close() }
            for round in 0..<settings.rounds {
                for delay in Self.order(settings.delaysMs, round: round) {
                    try Netem.apply(["delay", Self.milliseconds(delay)], on: interface, in: hosts.phoneNetns)
                    let run = try await bench.stream(rate: settings.rateHz, count: settings.count, sender: sender,
                                                     collector: collector, sends: &sends)
                    runs.append((transport, delay, run))
                    progress("\(transport), \(Self.milliseconds(delay)) injected, round \(round + 1)/\(settings.rounds): sent \(run.count), achieved \(String(format: "%.0f", run.achievedHz)) Hz")
                }
            }
        }
        try Netem.apply(nil, on: interface, in: hosts.phoneNetns)
        let evidence = await BenchRunner.evidence(sends: sends, peripheral: peripheral, collector: collector)
        let streams = runs.map { entry in (entry.transport, entry.delay, bench.analyse(entry.run, path: entry.transport, evidence: evidence)) }
        let injection = Dictionary(uniqueKeysWithValues: settings.transports.map {
            ($0, "netem delay D on \(interface) in \(hosts.phoneNetns) (the phone host's egress to the computer); D = 0ms for the baseline")
        })
        return (Self.rows(streams, transports: settings.transports), injection)
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

    /// netem's spelling of a delay: `5ms`, `2.5ms`.
    static func milliseconds(_ value: Double) -> String {
        (value == value.rounded() ? String(Int(value)) : String(format: "%g", value)) + "ms"
    }
}
