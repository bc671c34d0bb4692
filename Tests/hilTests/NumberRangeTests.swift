import ArgumentParser
import Foundation
@testable import hil
import HILTestSupport
import Rig
import RigControl
import Testing

/// A command's number options with a range: the words before the option (the command and what it needs), the words
/// after it, and the ranges.
struct RangedCommand: Sendable, CustomTestStringConvertible {
    var command: String
    var before: [String] = []
    var after: [String] = []
    var ranges: [any DescribedRange]

    var testDescription: String { "hil \(command)" }

    static let all: [RangedCommand] = [
        RangedCommand(command: "run", ranges: [RunCommand.ranges.sendJitter, RunCommand.ranges.timeout, RunCommand.ranges.repeats,
                                               RunCommand.ranges.lanes]),
        RangedCommand(command: "bench", ranges: [BenchCommand.ranges.count, BenchCommand.ranges.rate, BenchCommand.ranges.rungDuration,
                                                 BenchCommand.ranges.repetitions, BenchCommand.ranges.timeout]),
        RangedCommand(command: "calibrate", ranges: [CalibrateCommand.ranges.count, CalibrateCommand.ranges.rounds,
                                                     CalibrateCommand.ranges.rate, CalibrateCommand.ranges.timeout]),
        RangedCommand(command: "soak", ranges: [SoakCommand.ranges.duration, SoakCommand.ranges.rate]),
        RangedCommand(command: "record", before: words("--transport ble --output x.json"), ranges: [
            RecordCommand.ranges.gap, RecordCommand.ranges.tolerancePercent, RecordCommand.ranges.duration]),
        RangedCommand(command: "report", before: words("--history x"), ranges: [ReportCommand.keepRange]),
        RangedCommand(command: "lab run", ranges: [LabRunCommand.ranges.places, LabRunCommand.ranges.reserveTimeout,
                                                   LabRunCommand.ranges.timeout]),
        RangedCommand(command: "peripheral", ranges: [PeripheralCommand.ranges.lockout, PeripheralCommand.ranges.battery]),
        RangedCommand(command: "vm exec", after: ["--", "true"], ranges: [JobOptions.timeoutRange]),
        RangedCommand(command: "rig exec", after: ["--", "true"], ranges: [JobOptions.timeoutRange]),
        RangedCommand(command: "radio", before: words("--interval-ms 15"), ranges: [
            RadioCommand.ranges.packetsPerEvent, RadioCommand.ranges.delayMs, RadioCommand.ranges.errorRate]),
    ]
}

/// Numbers and ranges (issue 54, item 5): a negative number reaches the range check (argument-parser read `-1` as
/// an option: "Missing value for '--send-jitter <ms>'"), every range is in its option's help, in one notation (`1 to
/// 5000 Hz`, `10 or more`, `0 to under 1`), and each refusal says why.
@Suite("Numbers and ranges: the range in the help, and a value outside (a negative one too) refused with it")
struct NumberRangeTests {
    /// An option's block in a command's help: its line and the indented lines of its help after it.
    static func block(_ option: String, of command: String) throws -> String {
        let type = try #require(HelpTests.commands.first { $0.path == command }?.type, "no command hil \(command)")
        var blocks: [String] = []
        for line in HIL.helpMessage(for: type, columns: 10_000).split(separator: "\n") {
            if line.hasPrefix("  -") { blocks.append(String(line)) } else if !blocks.isEmpty { blocks[blocks.count - 1] += " " + line }
        }
        return try #require(blocks.first { $0.hasPrefix("  \(option) ") || $0.contains(", \(option) ") }, "no \(option) in hil \(command)")
    }

    @Test("each range is in its option's help, and refuses a value below it with the range, a negative one too",
          arguments: RangedCommand.all)
    func ranges(_ command: RangedCommand) throws {
        for range in command.ranges {
            let help = try Self.block(range.option, of: command.command)
            #expect(help.contains("Range: \(range.text)."), "hil \(command.command) \(range.option): \(help)")
            let line = words(command.command) + command.before + [range.option, range.refused] + command.after
            let (parsed, message) = parse(line)
            var refusal = message
            if var parsed {
                do {
                    try parsed.validate()
                } catch {
                    refusal = HIL.message(for: error)
                }
            }
            #expect(refusal.contains("\(range.option) takes \(range.text), not "), "hil \(line.joined(separator: " ")): \(refusal)")
            #expect(!refusal.contains("Missing value"), "hil \(line.joined(separator: " ")): \(refusal)")
        }
    }

    @Test("the values the issue named: each says its range", arguments: [
        ("run --send-jitter -1", "--send-jitter takes 0 to 100 ms, not -1 ms"),
        ("run --radio-error-rate -0.1", "--radio-error-rate takes 0 to under 1, not -0.1"),
        ("run --timeout -5", "--timeout takes 1s or more, not -5s"),
        ("run --timeout 0", "--timeout takes 1s or more, not 0s"),
        ("bench --rate -5", "--rate takes 1 to 5000 Hz, not -5 Hz"),
        ("calibrate --delays -5", "--delays takes 0 to 1000 ms, not -5 ms"),
        ("run --radio-interval -15", "--radio-interval takes 0 or immediate (btvirt delivers at once), or 7.5 to 4000 ms"),
        ("run --shard 3/2", "--shard 3/2: i is 1 to n (1 to 2), not 3"),
        ("run --shard 0/2", "--shard 0/2: i is 1 to n (1 to 2), not 0"),
        ("run --shard 2", "--shard 2: give i/n, slice i of n slices, e.g. 2/3"),
        ("run --shard 1/0", "--shard 1/0: n, the number of slices, is 1 or more"),
        ("run --shard a/3", "--shard a/3: i and n are whole numbers"),
    ])
    func named(line: String, says: String) {
        let (parsed, message) = parse(words(line))
        var refusal = message
        if var parsed {
            do {
                try parsed.validate()
                Issue.record("\(line) was accepted")
            } catch {
                refusal = HIL.message(for: error)
            }
        }
        #expect(refusal.contains(says), "\(line): \(refusal)")
    }

    @Test("hil run --timeout 0 is refused at once, before any rig is chosen or booted (exit 64)")
    func zeroTimeoutBeforeBoot() async throws {
        let good = packageRoot.appendingPathComponent("Scenarios-nightly/buttons/basic-mouse-mode.json").path
        let run = try await runSeparating(try RigGuest.hilBinary(), ["run", "--timeout", "0", good])
        #expect(run.status == 64, "\(run.errors)")
        #expect(run.errors.contains("--timeout takes 1s or more, not 0s"), "\(run.errors)")
        #expect(!run.errors.contains("hil: rig"), "no rig was chosen: \(run.errors)")
    }

    @Test("hil help NAME: an error naming the unknown command, exit 64; a command there is helped")
    func helpUnknown() async throws {
        #expect(HIL.unknownHelpTopic(["help", "nosuch"])?.contains("hil has no command \"nosuch\"; its commands: ") == true)
        #expect(HIL.unknownHelpTopic(["help", "vm", "nosuch"]) == "hil vm has no command \"nosuch\"; its commands: exec")
        #expect(HIL.unknownHelpTopic(words("help vm exec")) == nil && HIL.unknownHelpTopic(["run", "nosuch"]) == nil)
        let hil = try RigGuest.hilBinary()
        let unknown = try await runSeparating(hil, ["help", "nosuch"])
        #expect(unknown.status == 64 && unknown.errors.contains("\"nosuch\""), "\(unknown.status): \(unknown.errors)")
        #expect(unknown.output.isEmpty, "no top help: \(unknown.output)")
        let known = try await runSeparating(hil, words("help vm exec"))
        #expect(known.status == 0 && known.output.contains("USAGE: hil vm exec"), "\(known.output)")
    }

    @Test("hil vm exec: its usage puts [--bare] before -- <command>; an unknown --rig is offered vm rigs only")
    func vmExec() throws {
        let usage = HIL.usageString(for: VMExecCommand.self)
        let bare = try #require(usage.range(of: "[--bare]"), "\(usage)")
        let command = try #require(usage.range(of: "-- [<command> ...]"), "\(usage)")
        #expect(bare.upperBound <= command.lowerBound, "\(usage)")
        let catalog = try RigCatalog(directory: packageRoot.appendingPathComponent("Rigs").path)
        let error = #expect(throws: RigError.self) { try catalog.rig(named: "nosuch", of: .vm) }
        #expect(error?.hint == "choose one of: auto, vm", "\(String(describing: error))")
        #expect(error?.what.contains("no vm rig named \"nosuch\"") == true)
    }
}
