import ArgumentParser
import Foundation
import RigControl
import System

@main
struct HIL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hil",
        abstract: "RemoteTouch hardware-in-the-loop rig: replays phone gestures and checks the input events they cause.",
        discussion: """
            The phone (BLE central) turns gestures into JSON commands; the computer (BLE peripheral) turns them \
            into cursor, click, key and media events. `hil` emulates the phone, runs the computer side on real \
            BlueZ and uinput, and verifies what comes out.

            Exit status, the same cause with the same status in every command:
            \(ExitCause.table)
            """,
        version: "0.1.0",
        subcommands: [RunCommand.self, LabCommand.self, RecordCommand.self, BenchCommand.self, CalibrateCommand.self, SoakCommand.self, ReportCommand.self, ValidateCommand.self, ReplayCommand.self, DecodeCommand.self, DoctorCommand.self, RigCommand.self, VMCommand.self, PeripheralCommand.self, RadioCommand.self, MutantsCommand.self]
    )

    /// argument-parser's entry point, but `hil help NAME` for a command that is not there is an error (argument-parser
    /// prints the top help and exits 0), and a rig's error ends with its status (`RigError.exitStatus`).
    static func main() async {
        // A write to a pipe whose reader died (the Bumble phone's stdin, a child that exited early) fails with EPIPE,
        // which the writer reports, instead of killing hil; children get the default back (SpawnActions).
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = unknownHelpTopic(arguments) {
            printError("hil help: \(problem)")
            Foundation.exit(ExitCause.invalidInput.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let error as RigError {
            exit(withError: RigExecution.fail(error))
        } catch {
            exit(withError: error)
        }
    }

    /// Why `hil help …` names no command (`no command "nosuch"; the commands: run, lab, …`), or nil when it names
    /// one (or is no `help`).
    static func unknownHelpTopic(_ arguments: [String]) -> String? {
        guard arguments.first == "help" else { return nil }
        var tree = CommandTree(HIL.self)
        var path = "hil"
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            guard let next = tree.commands[name] else {
                let known = tree.commands.keys.sorted()
                return known.isEmpty
                    ? "\(path) has no commands, so none named \"\(name)\"; `\(path) --help` shows its options"
                    : "\(path) has no command \"\(name)\"; its commands: \(known.joined(separator: ", "))"
            }
            tree = next
            path += " " + name
        }
        return nil
    }
}
