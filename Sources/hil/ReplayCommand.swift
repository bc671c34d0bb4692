import ScenarioDriver
import ArgumentParser
import Foundation
import GestureScript
import Scenario

/// Offline replay: gesture scripts through the phone model and the computer-side mapping, no radio.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay gesture scripts offline through the phone's gesture model and the computer-side mapping.",
        discussion: """
            No BlueZ and no uinput: each script's steps become touch traces, the phone model turns them into \
            the commands it would send (with their times), and the mapping turns each command into the evdev \
            frames the computer would inject. Each step's expectations are then checked against those frames \
            (with no link latency), so a scenario that contradicts the phone model or the mapping shows up here \
            before it runs on a rig.

            Exit status 1 when a file is invalid, a command cannot be mapped, or an expectation does not hold.
            """
    )

    @Argument(help: "Script files, or folders searched recursively for *.json.")
    var paths: [String] = ["Scenarios"]

    @Flag(name: .shortAndLong, help: "Print one line per script (its verdict and totals) and the problems, not every command.")
    var quiet = false

    func run() async throws {
        let files = try ScenarioFiles.expand(paths, command: "hil replay")
        var failures = 0
        var totalCommands = 0
        var totalFrames = 0
        for (index, file) in files.enumerated() {
            let scenario: Scenario
            do {
                scenario = try Scenario.load(contentsOf: file)
            } catch {
                failures += 1
                print("[\(index + 1)/\(files.count)] INVALID \(file)")
                printError(error.description)
                continue
            }
            let script = scenario.script
            let result = await OfflineReplay.run(scenario)
            totalCommands += result.commandCount
            totalFrames += result.frameCount
            let verdict = result.errors.isEmpty ? "ok" : "ERROR"
            let heading = "[\(index + 1)/\(files.count)] \(verdict) \(file) — \(script.name)"
            if quiet {
                print(heading + ": " + result.summary)
            } else {
                print(heading + requirementsText(script))
                for line in result.lines { print("    " + line) }
                print("    " + result.summary)
            }
            for message in result.errors {
                failures += 1
                printError("\(file): \(message)")
            }
        }
        print("replayed \(files.count) script(s): \(totalCommands) commands, \(totalFrames) evdev frames, \(failures) problem(s)")
        if failures > 0 { throw ExitCode.failure }
    }

    private func requirementsText(_ script: GestureScript) -> String {
        script.requirements.isEmpty ? "" : " [" + script.requirements.joined(separator: ", ") + "]"
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
