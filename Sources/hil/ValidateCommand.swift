import ArgumentParser
import GestureScript
import Scenario

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

            Exit status 1 when any file has a problem; 64 when a path does not exist.
            """
    )

    @Argument(help: "Scenario files, or folders.")
    var paths: [String] = ["Scenarios"]

    @Flag(name: .shortAndLong, help: "Print only the problems and the summary line, not a line per good file.")
    var quiet = false

    func run() async throws {
        let files = try ScenarioFiles.expand(paths, command: "hil validate")
        var bad = 0
        var catalogs = RequirementCatalogs()
        var reportedCatalogs: Set<String> = []
        for file in files {
            let scenario: Scenario
            do {
                scenario = try Scenario.load(contentsOf: file)
            } catch {
                bad += 1
                printError(error.description)
                continue
            }
            var problems: [ScriptError.Problem] = scenario.checksNothingProblem.map { [$0] } ?? []
            switch catalogs.catalog(forFile: file) {
            case .success(let catalog)?:
                problems += catalog.unknownIDs(in: scenario)
            case .failure(let error)?:
                // A broken catalog is its own problem, reported once; the files under it are not counted bad for it.
                if reportedCatalogs.insert(error.file).inserted {
                    bad += 1
                    printError(error.description)
                }
            case nil:
                break
            }
            if !problems.isEmpty {
                bad += 1
                printError(ScriptError(file: file, located: problems).description)
                continue
            }
            if !quiet { print("ok  \(file): \(scenario.script.steps.count) steps, \(scenario.checkCount) check(s)") }
        }
        print("\(files.count) file(s), \(bad) with problems")
        if bad > 0 { throw ExitCode.failure }
    }
}
