import ArgumentParser
import Foundation
import System
import Rig
import Records
import Runner
import Scenario
import Bench

/// Streams cursor commands through the real link and measures latency, rate and loss on both write paths.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure write → evdev latency, achieved rate and lost commands per transport and write path, side by side.",
        discussion: """
            On a rig (--rig auto, as hil run), one hil peripheral is started and paired; then, for each write \
            path (dbus: WriteValue without response; fd: the AcquireWrite socket), --count cursor commands are \
            sent at --rate Hz and each one's evdev frame is timed (matched through the peripheral's receipts). \
            Lost commands never reached the computer (no receipt); unseen ones reached it but the evdev reader \
            did not see their frame (it fell behind: SYN_DROPPED).

            A ladder of rates (100 Hz up to 1000 Hz) then finds the highest rate each path sustains: each rung \
            is --repetitions streams of --rung-duration, and a rung is sustained only when every repetition is \
            (nothing lost or unseen, at least 95 % of the rate achieved, p99 within 100 ms: a link that falls \
            behind queues before it loses); the median and the range over the repetitions are printed.

            --reference runs the same streams from a plain client on another stack on the same link and prints \
            it side by side, so the report shows what hil's own client adds: for the ble write paths Python with \
            dbus-python (Rigs/reference/bench_client.py: python-dbus, python-fd), for tcp and udp Python's \
            standard library in the phone's network namespace, written from docs/protocol.md \
            (Rigs/reference/net_bench_client.py: python-tcp, python-udp); hid has none. The JSON written to --output/bench.json is stable (format hil-bench/1) \
            so runs can be compared.
            """
    )

    @OptionGroup var rigOptions: RigOptions

    @OptionGroup var radioOptions: RadioOptions

    /// The ranges of its number options (`OptionRange`: in their help, and the check that refuses a value outside).
    static let ranges = (
        count: OptionRange<Int>("--count", atLeast: 10), rate: OptionRange<Double>("--rate", 1, to: 5000, unit: "Hz"),
        rungDuration: OptionRange<DurationArgument>("--rung-duration", .seconds(1), to: .seconds(60)),
        repetitions: OptionRange<Int>("--repetitions", 1, to: 10),
        timeout: OptionRange<DurationArgument>("--timeout", atLeast: .seconds(1)))

    @Option(parsing: .unconditional, help: ranges.count.help("Commands per write path."))
    var count = 1000

    @Option(parsing: .unconditional, help: ranges.rate.help("Commands per second."))
    var rate = 100.0

    @Option(help: ArgumentHelp(
        "The write paths of the ble transport, in the order they run: dbus (WriteValue), fd (AcquireWrite), or both (dbus,fd).",
        valueName: "path"))
    var writePath = WritePaths([.dbus, .fd])

    @Flag(help: ArgumentHelp("Send every path on a fixed grid. Without it hil's own BLE paths (dbus, fd, hid) send each command at a uniform offset within its slot, so their p50 does not depend on where the stream met the radio's connection events (bench.json's pacing says which)."))
    var regularPace = false

    @Flag(inversion: .prefixedNo, help: "Find the highest rate each path sustains with nothing lost.")
    var findMax = true

    @Option(parsing: .unconditional, help: DurationArgument.help("How long each ladder stream lasts.", range: ranges.rungDuration))
    var rungDuration = DurationArgument(.seconds(5))

    @Option(parsing: .unconditional, help: ranges.repetitions.help("Streams per ladder rung; a rung is sustained only when every one is."))
    var repetitions = 3

    @Option(help: ArgumentHelp(
        "Which transports to measure, side by side: ble (the BLE write paths, --write-path), hid (6-byte reports on the report characteristic, over its acquired socket), tcp (the iPad design's network transport: Bonjour, pairing, 120 Hz batches), udp (5-byte movement packets after pairing over the control connection); several separated by commas (ble,hid,tcp,udp) or all.",
        valueName: "transport"))
    var transport: TransportChoice = .one(.ble)

    @Flag(help: "Also run every path but hid from a plain reference client (python-dbus, python-fd, python-tcp, python-udp), side by side.")
    var reference = false

    @Option(help: ArgumentHelp("The reference client for the ble write paths.", valueName: "file"))
    var referenceClient = "Rigs/reference/bench_client.py"

    @Option(help: ArgumentHelp("The reference client for tcp and udp.", valueName: "file"))
    var referenceNetworkClient = "Rigs/reference/net_bench_client.py"

    @Option(help: ArgumentHelp("Where bench.json and the peripheral's logs go.", valueName: "dir"))
    var output = "bench"

    @Option(parsing: .unconditional, help: DurationArgument.help("Stop after this long.", range: ranges.timeout))
    var timeout = DurationArgument(.seconds(900))

    func validate() throws {
        try Self.ranges.count.check(count)
        try Self.ranges.rate.check(rate)
        try Self.ranges.rungDuration.check(rungDuration)
        try Self.ranges.repetitions.check(repetitions)
        try Self.ranges.timeout.check(timeout)
        let transports = transport.transports
        if reference && transports.contains(.ble) && !FileManager.default.isReadableFile(atPath: referenceClient) {
            throw ValidationError("--reference: no reference client at \(referenceClient); run from the project folder or pass --reference-client")
        }
        if reference && (transports.contains(.tcp) || transports.contains(.udp)) && !FileManager.default.isReadableFile(atPath: referenceNetworkClient) {
            throw ValidationError("--reference: no network reference client at \(referenceNetworkClient); run from the project folder or pass --reference-network-client")
        }
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
        let work = context.workDirectory
        var settings = BenchRunner.Settings()
        settings.count = count
        settings.rateHz = rate
        settings.paths = Self.paths(transport.transports, writePaths: writePath.values, reference: reference)
        settings.findMax = findMax
        settings.dither = !regularPace
        settings.rungSeconds = rungDuration.seconds
        settings.repetitions = repetitions
        settings.referenceClient = (referenceClient as NSString).expandingTildeInPath
        settings.referenceNetworkClient = (referenceNetworkClient as NSString).expandingTildeInPath
        print("hil bench: \(count) cursor commands at \(Int(rate)) Hz per path (\(settings.paths.joined(separator: ", "))) on rig \(rigName)")
        fflush(nil)
        let results = try await BenchRunner(context: context, settings: settings).run { line in
            print(line)
            fflush(nil)
        }
        print("")
        print(Self.table(results, paths: settings.paths))
        if findMax {
            print("")
            print(Self.ladderTable(results, paths: settings.paths, settings: settings))
        }
        let facts = HostFacts.probe()
        let definition = (try? RigOptions.catalog(rigOptions.rigs))?.rigs.first { $0.name == rigName }
        let json = BenchRunner.json(results, paths: settings.paths, settings: settings, rig: rigName, kernel: facts.kernelRelease,
                                    bluez: facts.bluetoothdVersion, radio: RunCommand.radio(definition))
        try json.write(toFile: work + "/bench.json", atomically: true, encoding: .utf8)
        if let line = context.rig.resultsLine(["bench.json"], in: work) { print(line) }
        let held = BenchRunner.held(results, paths: settings.paths)
        if !held.isEmpty {
            print("hil bench: FAILED: a stream ended with a key or button held (EVIOCGKEY): " + held.joined(separator: "; "))
        }
        fflush(nil)
        if !held.isEmpty { throw ExitCause.productFailed.exit }
    }

    /// The paths in the order they run: each transport's own (ble: one a write path), then, with `reference`, the
    /// same from the reference client (`python-` and the name; hid has none).
    static func paths(_ transports: [Transport], writePaths: [StreamWritePath], reference: Bool) -> [String] {
        transports.flatMap { transport -> [String] in
            let own = transport == .ble ? writePaths.map(\.rawValue) : [transport.rawValue]
            return own + (reference && transport != .hid ? own.map { "python-" + $0 } : [])
        }
    }

    /// The transport a path measures, for its claim: ble for the write paths, the reference client's as hil's own.
    static func transport(ofPath path: String) -> String {
        let own = path.hasPrefix("python-") ? String(path.dropFirst("python-".count)) : path
        return ["dbus", "fd"].contains(own) ? "ble" : own
    }

    /// Every path side by side.
    static func table(_ results: [String: BenchRunner.PathResult], paths: [String]) -> String {
        func f(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
        let rows: [(String, (BenchRunner.PathResult) -> String)] = [
            ("sent", { "\($0.main.sent)" }),
            ("received", { "\($0.main.received)" }),
            ("lost (link)", { "\($0.main.lost)" }),
            ("unseen (evdev)", { "\($0.main.unseen)" }),
            ("SYN_DROPPED", { "\($0.main.readerDrops)" }),
            ("achieved Hz", { String(format: "%.1f", $0.main.achievedHz) }),
            ("p50 ms", { f($0.main.latency.p50) }),
            ("p95 ms", { f($0.main.latency.p95) }),
            ("p99 ms", { f($0.main.latency.p99) }),
            ("max ms", { f($0.main.latency.max) }),
            ("link p50 ms", { f($0.main.stages["link"]?.p50) }),
            ("peripheral p50 ms", { f($0.main.stages["peripheral"]?.p50) }),
            ("max sustained Hz", { $0.maxSustainedHz.map { String(Int($0)) } ?? "-" }),
        ]
        let width = 13
        var lines = ["".padding(toLength: 20, withPad: " ", startingAt: 0) + paths.map { $0.padding(toLength: width, withPad: " ", startingAt: 0) }.joined()]
        for (name, cell) in rows {
            lines.append(name.padding(toLength: 20, withPad: " ", startingAt: 0)
                + paths.map { path in (results[path].map(cell) ?? "-").padding(toLength: width, withPad: " ", startingAt: 0) }.joined())
        }
        // seeds/connectivity-layer.md's "Performance Characteristics", for the ble paths and the hid and udp ones.
        lines.append("the product's claim".padding(toLength: 20, withPad: " ", startingAt: 0) + paths.map { path in
            (TransportLatency.claim(transport(ofPath: path)) ?? "-").padding(toLength: width, withPad: " ", startingAt: 0)
        }.joined())
        return lines.joined(separator: "\n")
    }

    /// Per rung and path: sustained or not, the median p99 and its range, the median achieved rate.
    static func ladderTable(_ results: [String: BenchRunner.PathResult], paths: [String], settings: BenchRunner.Settings) -> String {
        let width = 30
        var lines = ["ladder: \(settings.repetitions) × \(String(format: "%g", settings.rungSeconds)) s a rung; ✓ every repetition sustained; p99 ms median [min–max], achieved Hz median",
                     "rate Hz".padding(toLength: 9, withPad: " ", startingAt: 0) + paths.map { $0.padding(toLength: width, withPad: " ", startingAt: 0) }.joined()]
        for rate in settings.ladderHz {
            let cells = paths.map { path -> String in
                guard let rung = results[path]?.ladder.first(where: { $0.rateHz == rate }) else { return "-" }
                let p99 = rung.p99Ms
                func f(_ value: Double) -> String { value.isFinite ? String(format: "%.1f", value) : "∞" }
                return "\(rung.sustained ? "✓" : "✗") \(f(p99.median)) [\(f(p99.min))–\(f(p99.max))] \(String(format: "%.0f", rung.achievedHz.median)) Hz"
            }
            guard cells.contains(where: { $0 != "-" }) else { break }
            lines.append(String(Int(rate)).padding(toLength: 9, withPad: " ", startingAt: 0)
                + cells.map { $0.padding(toLength: width, withPad: " ", startingAt: 0) }.joined())
        }
        return lines.joined(separator: "\n")
    }
}
