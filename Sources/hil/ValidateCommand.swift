import ArgumentParser
import Records
import System

/// Checks scenario files and reports every problem with its file, line and column, and JSON path.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario files: every problem, as file:line:column: json.path: message.",
        discussion: """
            A line per good file and the summary line on standard output; every problem on standard error. \
            Folders are searched recursively for *.json. Each file's requirement ids are checked against the \
            requirements.json nearest above that file, whatever other paths are given. A scenario that checks \
            nothing (no expect, expectDevices or expectRefusal) is a problem: any run of it would pass.

            Exit status 0 when every file is valid; 64 (invalid input, as for every command) when a file has a \
            problem or a path does not exist.
            """
    )

    @Argument(help: "Scenario files, or folders.")
    var paths: [String] = ["Scenarios"]

    @Flag(name: .shortAndLong, help: "Print only the problems and the summary line, not a line per good file.")
    var quiet = false

    func run() async throws {
        let files = try ScenarioFiles.expand(paths, command: "hil validate")
        var bad = 0
        var validity = ScenarioValidity()
        for file in files {
            let checked = validity.check(file)
            for problem in checked.problems { printError(problem) }
            guard let scenario = checked.scenario else {
                bad += 1
                continue
            }
            if !quiet { print("ok  \(file): \(counted(scenario.script.steps.count, "step")), \(scenario.checkCount) check(s)") }
        }
        for note in validity.notes { printError(note) }
        print("\(files.count) file(s), \(bad) with problems")
        if bad > 0 { throw ExitCause.invalidInput.exit }
    }
}
