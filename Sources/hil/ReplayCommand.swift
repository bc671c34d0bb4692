import ArgumentParser
import CommandMapping
import Foundation
import GestureModel
import GestureScript
import InputCodes
import RemoteTouchProtocol

/// Offline replay: gesture scripts through the phone model and the computer-side mapping, no radio.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay gesture scripts offline through the phone's gesture model and the computer-side mapping.",
        discussion: """
            No BlueZ and no uinput: each script's steps become touch traces, the phone model turns them into
            the commands it would send (with their times), and the mapping turns each command into the evdev
            frames the computer would inject. Useful to design a scenario before running it on a rig.
            Exit status 1 when a file is invalid or a command cannot be mapped.
            """
    )

    @Argument(help: "Script files, or folders searched recursively for *.json.")
    var paths: [String] = ["Scenarios"]

    @Flag(name: .shortAndLong, help: "Print only each script's summary line, not every command.")
    var quiet = false

    func run() async throws {
        let files = try ScenarioFiles.expand(paths)
        var failures = 0
        var totalCommands = 0
        var totalFrames = 0
        for (index, file) in files.enumerated() {
            let script: GestureScript
            do {
                script = try GestureScript.load(contentsOf: file)
            } catch {
                failures += 1
                print("[\(index + 1)/\(files.count)] INVALID \(file)")
                printError(error.description)
                continue
            }
            let result = Replay(script: script)
            totalCommands += result.commandCount
            totalFrames += result.frameCount
            let verdict = result.errors.isEmpty ? "ok" : "ERROR"
            print("[\(index + 1)/\(files.count)] \(verdict) \(file) — \(script.name)\(requirementsText(script))")
            if !quiet {
                for line in result.lines { print("    " + line) }
            }
            print("    " + result.summary)
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

/// One script's replay: the commands at their times and the frames each one maps to.
struct Replay {
    var lines: [String] = []
    var errors: [String] = []
    var commandCount = 0
    var frameCount = 0
    var summary = ""

    init(script: GestureScript) {
        var processor = GestureProcessor(settings: script.settings)
        var mapper = CommandMapper()
        // The phone sends its mode on connect, so both sides agree before the first gesture.
        var outputs = processor.resync(at: .zero)
        for input in script.inputs() {
            outputs += processor.handle(input.input, at: input.time)
        }
        outputs += processor.advance(to: script.duration() + .seconds(1))

        var totals: [EventCode: Int] = [:]
        var presses: [EventCode: Int] = [:]
        for output in outputs {
            let time = String(format: "%9.1f ms", output.time.milliseconds)
            guard let command = output.command else {
                lines.append("\(time)  [phone is now \(output.description.split(separator: "[").last.map { "[" + $0 } ?? "")")
                continue
            }
            commandCount += 1
            let json = String(decoding: command.encoded(), as: UTF8.self)
            do {
                let frames = try mapper.map(command)
                frameCount += frames.count
                for event in frames.flatMap(\.events) {
                    if event.code.type == .rel { totals[event.code, default: 0] += Int(event.value) }
                    if event.code.type == .key && event.value == 1 { presses[event.code, default: 0] += 1 }
                }
                let shown = frames.isEmpty ? "(no events)" : frames.map(\.description).joined(separator: " ")
                lines.append("\(time)  \(json)  →  \(shown)")
            } catch {
                lines.append("\(time)  \(json)  →  REFUSED: \(error.message)")
                errors.append("command at \(time.trimmingCharacters(in: .whitespaces)) cannot be mapped: \(error.message)")
            }
        }
        let motion = totals.sorted { $0.key.code < $1.key.code }.map { "\($0.key) \($0.value)" }
        let keys = presses.sorted { $0.key.code < $1.key.code }.map { "\($0.key)×\($0.value)" }
        summary = "\(commandCount) commands, \(frameCount) frames"
            + (motion.isEmpty ? "" : "; motion " + motion.joined(separator: ", "))
            + (keys.isEmpty ? "" : "; presses " + keys.joined(separator: ", "))
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
