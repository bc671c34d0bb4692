import ArgumentParser
import Foundation
import System
import Scenario
import Bench

/// Streams cursor commands for many minutes and reports loss, latency and the computer's memory every minute.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Stream gestures through the real link for minutes; every minute: sent, verified, lost, p50/p99, the computer's memory.",
        discussion: """
            On a rig (--rig auto, as hil run), one hil peripheral is paired and cursor commands stream at --rate \
            Hz on --write-path for --duration (1m to 24h; a last part-minute when it is not whole minutes). Each \
            minute prints the commands sent, those whose evdev frame was seen \
            (the others: unverified), latency p50/p99, and the peripheral's resident memory (VmRSS). At the end \
            the computer's receipts give the commands the link lost in all. soak.json in --output keeps every \
            minute.

            Exit status 1 when anything was lost.
            """
    )

    @OptionGroup var rigOptions: RigOptions

    @OptionGroup var radioOptions: RadioOptions

    /// The ranges of its number options (`OptionRange`: in their help, and the check that refuses a value outside).
    static let ranges = (
        duration: OptionRange<DurationArgument>("--duration", .seconds(60), to: .seconds(24 * 3600)),
        rate: OptionRange<Double>("--rate", 1, to: 2000, unit: "Hz"))

    @Option(parsing: .unconditional, help: DurationArgument.help("How long to stream.", range: ranges.duration))
    var duration = DurationArgument(.seconds(30 * 60))

    @Option(parsing: .unconditional, help: ranges.rate.help("Commands per second."))
    var rate = 120.0

    @Option(help: ArgumentHelp("The write path: dbus (WriteValue) or fd (AcquireWrite).", valueName: "path"))
    var writePath: StreamWritePath = .fd

    @Flag(help: ArgumentHelp("Send on a fixed grid. Without it each send is at a uniform offset within its slot, so the stream meets the radio's connection events at even phases (soak.json's pacing says which)."))
    var regularPace = false

    @Option(help: ArgumentHelp("Where soak.json and the peripheral's logs go.", valueName: "dir"))
    var output = "soak"

    func validate() throws {
        try Self.ranges.duration.check(duration)
        try Self.ranges.rate.check(rate)
    }

    func run() async throws {
        if try RigOptions.insideRig() {
            try await runInside()
            return
        }
        try rigOptions.runInRig(output: output, timeout: duration.duration + .seconds(300), radio: radioOptions)
    }

    private func runInside() async throws {
        let (rigName, context) = try RunCommand.rigContext(rigs: rigOptions.rigs, output: output, writePath: nil)
        let path = writePath.rawValue
        print("hil soak: \(duration) at \(Int(rate)) Hz on the \(path) path, rig \(rigName)")
        fflush(nil)
        let summary = try await SoakRunner(context: context).run(duration: duration.duration, rateHz: rate, path: path, dither: !regularPace) { minute in
            print(minute.line)
            fflush(nil)
        }
        print(summary.totalLine)
        try summary.json(rig: rigName, rateHz: rate, path: path).write(toFile: context.workDirectory + "/soak.json", atomically: true, encoding: .utf8)
        if let line = context.rig.resultsLine(["soak.json"], in: context.workDirectory) { print(line) }
        fflush(nil)
        if !summary.passed { throw ExitCause.productFailed.exit }
    }
}
