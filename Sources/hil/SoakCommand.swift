import ArgumentParser
import Foundation
import Rig
import Runner
import Scenario
import Bench

/// Streams cursor commands for many minutes and reports loss, latency and the computer's memory every minute.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Stream gestures through the real link for minutes; every minute: sent, verified, lost, p50/p99, the computer's memory.",
        discussion: """
            On a rig (--rig auto, as hil run), one hil peripheral is paired and cursor commands stream at --rate \
            Hz on --write-path for --duration. Each minute prints the commands sent, those whose evdev frame was seen \
            (the others: unverified), latency p50/p99, and the peripheral's resident memory (VmRSS). At the end \
            the computer's receipts give the commands the link lost in all. soak.json in --output keeps every \
            minute.

            Exit status 1 when anything was lost.
            """
    )

    @OptionGroup var rigOptions: RigOptions

    @Option(help: DurationArgument<BareMinutes>.help("How long to stream: whole minutes, 1m to 24h."))
    var duration = DurationArgument<BareMinutes>(.seconds(30 * 60))

    @Option(help: "Commands per second.")
    var rate = 120.0

    @Option(help: ArgumentHelp("The write path: dbus (WriteValue) or fd (AcquireWrite).", valueName: "path"))
    var writePath: StreamWritePath = .fd

    @Option(help: ArgumentHelp("Where soak.json and the peripheral's logs go.", valueName: "dir"))
    var output = "soak"

    func validate() throws {
        guard let minutes = duration.wholeMinutes, (1...24 * 60).contains(minutes) else {
            throw ValidationError("--duration is whole minutes, 1m to 24h, not \(duration)")
        }
        guard rate > 0 && rate <= 2000 else { throw ValidationError("--rate is 1 to 2000 Hz") }
    }

    func run() async throws {
        if try RigOptions.insideRig() {
            try await runInside()
            return
        }
        try rigOptions.runInRig(output: output, timeout: duration.duration + .seconds(300))
    }

    private func runInside() async throws {
        let (rigName, context) = try RunCommand.rigContext(rigs: rigOptions.rigs, output: output, writePath: nil)
        let path = writePath.rawValue
        let minutes = duration.wholeMinutes ?? 0
        print("hil soak: \(minutes) min at \(Int(rate)) Hz on the \(path) path, rig \(rigName)")
        fflush(nil)
        let summary = try await SoakRunner(context: context).run(minutes: minutes, rateHz: rate, path: path) { minute in
            print(minute.line)
            fflush(nil)
        }
        print(summary.totalLine)
        try summary.json(rig: rigName, rateHz: rate, path: path).write(toFile: context.workDirectory + "/soak.json", atomically: true, encoding: .utf8)
        print("results: \(context.workDirectory)/soak.json")
        fflush(nil)
        if !summary.passed { throw ExitCode.failure }
    }
}
