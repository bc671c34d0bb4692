import ArgumentParser
import Scenario

/// Checks scenario files and reports every problem with its file and JSON path.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario files: every problem, as file: json.path: message.",
        discussion: "Exit status 1 when any file has a problem. Folders are searched recursively for *.json."
    )

    @Argument(help: "Scenario files, or folders.")
    var paths: [String] = ["Scenarios"]

    func run() async throws {
        let files = try ScenarioFiles.expand(paths)
        var bad = 0
        for file in files {
            do {
                let scenario = try Scenario.load(contentsOf: file)
                let checked = scenario.expectations.compactMap { $0 }.count
                print("ok  \(file): \(scenario.script.steps.count) steps, \(checked) with expectations")
            } catch {
                bad += 1
                print(error.description)
            }
        }
        print("\(files.count) file(s), \(bad) with problems")
        if bad > 0 { throw ExitCode.failure }
    }
}
