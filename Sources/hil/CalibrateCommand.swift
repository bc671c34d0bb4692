import ArgumentParser
import Bench
import Foundation
import System
import Records
import Rig
import Runner

/// Injects known delays and shows that the measured latency follows them.
struct CalibrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Inject known delays into the link and show that the measured latency follows them.",
        discussion: """
            On a rig (--rig auto, as hil bench), one hil peripheral is started and paired; then, for each \
            transport, --count cursor commands are streamed at --rate Hz once per delay and round, as hil bench \
            streams them, and each one's evdev frame is timed. The rounds take the delays in turn. For each \
            transport and delay it prints, and writes to --output/calibrate.json, the p50 and its shift from the \
            undelayed p50 (shiftP50Ms) with a 95 % bootstrap interval, beside the injected delay (injectedMs).

            tcp and udp are delayed by netem on the phone host's interface, where the packets to the computer \
            leave; the baseline (0) runs with netem delay 0ms in place. ble and hid are delayed in the vm rig's \
            radio model: each bridge adds the delay to every ACL packet before its connection event (its control \
            FIFO, hil radio --control); ble streams over the AcquireWrite socket, and the sends of both are \
            dithered within their slots, so they meet the radio's periodic events at even phases. docs/report.md \
            gives the measurement's error budget.
            """
    )

    @OptionGroup var rigOptions: RigOptions

    @OptionGroup var radioOptions: RadioOptions

    @Option(help: ArgumentHelp("The transports to calibrate, in order: ble, hid (the vm rig's radio model), tcp, udp (netem).",
                               valueName: "transport"))
    var transport: TransportChoice = .several([.tcp, .udp])

    /// The ranges of its number options (`OptionRange`: in their help, and the check that refuses a value outside).
    static let ranges = (
        delays: OptionRange<Double>("--delays", 0, to: 1000, unit: "ms"),
        count: OptionRange<Int>("--count", atLeast: 50), rounds: OptionRange<Int>("--rounds", 1, to: 10),
        rate: OptionRange<Double>("--rate", 1, to: 1000, unit: "Hz"),
        timeout: OptionRange<DurationArgument>("--timeout", atLeast: .seconds(1)))

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The delays to inject, in ms, separated by commas, each once; 0, the baseline, is always measured. Range: each \(ranges.delays.text).",
        valueName: "ms,…"), transform: Delays.parsing)
    var delays = Delays([0, 5, 20])

    @Option(parsing: .unconditional, help: ranges.count.help(
        "Commands per transport, delay and round.", discussion: "Fewer would leave a p50 that moves with the guest's noise."))
    var count = 300

    @Option(parsing: .unconditional, help: ranges.rounds.help("Rounds over the delays; each delay's streams are pooled."))
    var rounds = 3

    @Option(parsing: .unconditional, help: ranges.rate.help("Commands per second."))
    var rate = 100.0

    @Flag(help: ArgumentHelp("Send ble and hid at a fixed pace too, as tcp and udp are. Without it their sends are dithered within each slot, so they meet the radio's connection events at even phases; this is for comparing the two."))
    var regularPace = false

    @Option(help: ArgumentHelp("Where calibrate.json and the peripheral's logs go.", valueName: "dir"))
    var output = "calibrate"

    @Option(parsing: .unconditional, help: DurationArgument.help("Stop after this long.", range: ranges.timeout))
    var timeout = DurationArgument(.seconds(1800))

    func validate() throws {
        try Self.ranges.count.check(count)
        try Self.ranges.rounds.check(rounds)
        try Self.ranges.rate.check(rate)
        try Self.ranges.timeout.check(timeout)
    }

    func run() async throws {
        if try RigOptions.insideRig() {
            try await runInside()
            return
        }
        try rigOptions.runInRig(output: output, timeout: timeout.duration, radio: radioOptions)
    }

    private func runInside() async throws {
        let (rigName, context) = try RunCommand.rigContext(rigs: rigOptions.rigs, output: output, writePath: nil)
        var settings = CalibrationRunner.Settings()
        settings.transports = transport.transports.map(\.rawValue)
        settings.delaysMs = delays.values
        settings.count = count
        settings.rounds = rounds
        settings.rateHz = rate
        settings.ditherRadio = !regularPace
        let order = CalibrationRunner.order(delays.values, round: 0).map { Self.format($0) }.joined(separator: ", ")
        print("hil calibrate: \(settings.transports.joined(separator: ", ")), delays \(order) ms, \(rounds) round(s) of \(count) cursor commands at \(Int(rate)) Hz each, on rig \(rigName)")
        fflush(nil)
        let (rows, injection, held) = try await CalibrationRunner(context: context, settings: settings).run { line in
            print(line)
            fflush(nil)
        }
        print("")
        print(Self.table(rows))
        let facts = HostFacts.probe()
        var results = CalibrationResults(rig: rigName, kernel: facts.kernelRelease, injection: injection, rateHz: rate, count: count,
                                         rounds: rounds, rows: rows)
        results.heldAtEnd = held
        try results.jsonText.write(toFile: context.workDirectory + "/calibrate.json", atomically: true, encoding: .utf8)
        if let line = context.rig.resultsLine(["calibrate.json"], in: context.workDirectory) { print(line) }
        print(held.isEmpty ? "nothing held after any stream" : "hil calibrate: FAILED: a stream ended with a key or button held (EVIOCGKEY): " + held.joined(separator: "; "))
        fflush(nil)
        if !held.isEmpty { throw ExitCause.productFailed.exit }
    }

    /// One row per transport and delay: what was injected, what was measured, and the difference.
    static func table(_ rows: [CalibrationResults.Row]) -> String {
        func f(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
        let header = ["transport", "injected ms", "verified", "p50 ms", "link p50 ms", "shift p50 ms", "95 % interval", "shift − injected"]
        let widths = [10, 12, 10, 9, 12, 13, 16, 16]
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined().trimmingCharacters(in: .whitespaces)
        }
        return ([line(header)] + rows.map { row in
            let interval = row.shiftLowMs.flatMap { low in row.shiftHighMs.map { "\(f(low))…\(f($0))" } } ?? "-"
            return line([row.transport, format(row.injectedMs), "\(row.verified)/\(row.sent)", f(row.p50Ms), f(row.linkP50Ms),
                         f(row.shiftP50Ms), interval, row.errorMs.map { String(format: "%+.2f", $0) } ?? "-"])
        }).joined(separator: "\n")
    }

    static func format(_ value: Double) -> String { NumberText.plain(value) }
}

/// `--delays 0,5,20`: milliseconds, each 0 to 1000 (`CalibrateCommand.ranges.delays`), each once.
struct Delays: ExpressibleByArgument, CustomStringConvertible {
    var values: [Double]

    init(_ values: [Double]) {
        self.values = values
    }

    init?(argument: String) {
        let parsed = argument.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ $0.map { $0.isFinite && (0...1000).contains($0) } == true }) else { return nil }
        let values = parsed.compactMap { $0 }
        guard Set(values).count == values.count else { return nil }
        self.values = values
    }

    var description: String { values.map { String(format: "%g", $0) }.joined(separator: ",") }
    var defaultValueDescription: String { description }

    /// `--delays`'s value, or why it is none: a number outside the range is refused with the range.
    static func parsing(_ text: String) throws -> Delays {
        if let delays = Delays(argument: text) { return delays }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for part in parts {
            guard let value = Double(part), value.isFinite else {
                throw ValidationError("--delays \(text): \"\(part)\" is not a number of ms; give them separated by commas, e.g. 0,5,20")
            }
            try CalibrateCommand.ranges.delays.check(value)
        }
        throw ValidationError("--delays \(text): each delay once")
    }
}
