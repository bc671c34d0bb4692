import ArgumentParser
import Scenario

/// Checks scenario files and reports every problem with its file and JSON path.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario files: every problem, as file: json.path: message.",
        discussion: """
            A line per good file and the summary line on standard output; every problem on standard error. \
            Folders are searched recursively for *.json.

            Exit status 1 when any file has a problem.
            """
    )

    @Argument(help: "Scenario files, or folders.")
    var paths: [String] = ["Scenarios"]

    @Flag(name: .shortAndLong, help: "Print only the problems and the summary line, not a line per good file.")
    var quiet = false

    func run() async throws {
        let files = try ScenarioFiles.expand(paths)
        var bad = 0
        var catalog: RequirementCatalog?
        if let file = RequirementCatalog.find(for: paths) {
            do {
                catalog = try RequirementCatalog.load(contentsOf: file)
            } catch {
                bad += 1
                printError(error.description)
            }
        }
        for file in files {
            do {
                let scenario = try Scenario.load(contentsOf: file)
                if let unknown = catalog?.unknownIDs(in: scenario), !unknown.isEmpty {
                    bad += 1
                    printError(unknown.map { "\(file): \($0)" }.joined(separator: "\n"))
                    continue
                }
                if !quiet { print("ok  \(file): \(scenario.script.steps.count) steps, \(scenario.checkCount) check(s)") }
            } catch {
                bad += 1
                printError(error.description)
            }
        }
        print("\(files.count) file(s), \(bad) with problems")
        if bad > 0 { throw ExitCode.failure }
    }
}
