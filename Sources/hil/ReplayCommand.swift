import ScenarioDriver
import ArgumentParser
import Foundation
import Records
import GestureScript
import System

/// Offline replay: gesture scripts through the phone model and the computer-side mapping, no radio.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay gesture scripts offline through the phone's gesture model and the computer-side mapping.",
        discussion: """
            No BlueZ and no uinput: each script's steps become touch traces, the phone model turns them into \
            the commands it would send (with their times), and the mapping turns each command into the evdev \
            frames the computer would inject. Each step's frame and received-command expectations are then \
            checked against those frames (with no link latency), so a scenario that contradicts the phone model \
            or the mapping shows up here before it runs on a rig.

            The other checks (pairing, status, link, the phone's state, the device list, a refusal to start) need \
            a rig: each scenario's line says how many were not judged, and a scenario none of whose checks could \
            be judged is "not judged", never "ok". A scenario whose computer must refuse to start runs no step.

            Exit status 0 when nothing failed and at least one check was judged; 1 when a command cannot be \
            mapped or an expectation does not hold; 2 when nothing failed but no check at all could be judged \
            offline (every scenario given is "not judged": run them with hil run); 64 when a file is invalid or \
            a path does not exist (the others are replayed all the same).
            """
    )

    @Argument(help: "Script files, or folders searched recursively for *.json.")
    var paths: [String] = ["Scenarios"]

    @Flag(name: .shortAndLong, help: ArgumentHelp(
        "Print one line per script and the totals, not every command.",
        discussion: "A script that passed or was not judged has its line on standard output; one with problems on standard error, with its first problem."))
    var quiet = false

    func run() async throws {
        let files = try ScenarioFiles.expand(paths, command: "hil replay")
        var tally = ReplayTally()
        var validity = ScenarioValidity()
        for (index, file) in files.enumerated() {
            let counter = "[\(index + 1)/\(files.count)]"
            let checked = validity.check(file)
            guard let scenario = checked.scenario else {
                // Invalid as hil validate and hil run judge it: not replayed.
                tally.invalid += 1
                if quiet {
                    printError("\(counter) INVALID \(Self.oneLine(checked.problems.joined(separator: "\n"), count: checked.count))")
                } else {
                    print("\(counter) INVALID \(file)")
                    for problem in checked.problems { printError(problem) }
                }
                continue
            }
            let result = await OfflineReplay.run(scenario)
            tally.add(result)
            let heading = "\(counter) \(result.verdict.rawValue) \(file) — \(scenario.script.name)"
            if quiet {
                if result.errors.isEmpty {
                    print(heading + ": " + result.summary)
                } else {
                    printError(heading + ": " + Self.oneLine(result.errors[0], count: result.errors.count))
                }
            } else {
                print(heading + requirementsText(scenario.script))
                for line in result.lines { print("    " + line) }
                for check in result.notJudged { print("    needs a rig, not judged: " + check) }
                print("    " + result.summary)
                for message in result.errors { printError("\(file): \(message)") }
            }
        }
        for note in validity.notes { printError(note) }
        print("replayed \(files.count) script(s): " + tally.summary)
        if tally.status != .passed { throw tally.status.exit }
    }

    /// A problem's first line (with the next one when the first only introduces it), and how many problems there
    /// are in all, for `-q`'s one line per script.
    static func oneLine(_ problem: String, count: Int) -> String {
        let lines = problem.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var first = lines.first ?? problem
        if first.hasSuffix(":"), lines.count > 1 { first += " " + lines[1] }
        let more = count > 1 ? " (+\(count - 1) more problem(s))" : ""
        return first + more + "; without -q: every problem in full"
    }

    private func requirementsText(_ script: GestureScript) -> String {
        script.requirements.isEmpty ? "" : " [" + script.requirements.joined(separator: ", ") + "]"
    }
}

/// The totals of a replay, and the exit status they give.
struct ReplayTally: Equatable {
    var commands = 0
    var frames = 0
    var ok = 0
    var notJudged = 0
    var failed = 0
    var problems = 0
    var invalid = 0

    mutating func add(_ result: OfflineReplay) {
        commands += result.commandCount
        frames += result.frameCount
        problems += result.errors.count
        switch result.verdict {
        case .ok: ok += 1
        case .notJudged: notJudged += 1
        case .failed: failed += 1
        }
    }

    /// `12 commands, 30 evdev frames, 0 problem(s); 10 ok, 2 not judged (their checks need a rig: hil run)`
    var summary: String {
        "\(counted(commands, "command")), \(counted(frames, "evdev frame")), \(problems + invalid) problem(s); \(ok) ok"
            + (notJudged == 0 ? "" : ", \(notJudged) not judged (their checks need a rig: hil run)")
            + (failed + invalid == 0 ? "" : ", \(failed + invalid) failed or invalid")
    }

    /// Nil (exit 0) when nothing failed and something was judged; 64 for an invalid file, which outranks 1 for a
    /// failed replay; 2 when nothing failed and nothing could be judged: a replay that judged nothing must not read
    /// as a pass.
    var status: ExitCause {
        if invalid > 0 { return .invalidInput }
        if failed > 0 { return .productFailed }
        return ok == 0 ? .notJudged : .passed
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
