import ArgumentParser
import Foundation
import Scenario
import System

/// Expands files and folders given on the command line into the JSON files to run, sorted, so runs are
/// repeatable. Folders are searched recursively for `*.json`; `*.schema.json` files and the requirement
/// catalog (`requirements.json`) are not scenarios.
enum ScenarioFiles {
    /// The scenario files under `paths`. A path that is not there is named with the folder it was looked for in,
    /// on standard error (not with the usage of all of hil), and ends `command` with exit status 64 (invalid input).
    static func expand(_ paths: [String], command: String) throws -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                printError("\(command): \(missing(path, in: manager.currentDirectoryPath, command: command))")
                throw ExitCause.invalidInput.exit
            }
            guard isDirectory.boolValue else {
                if let what = notAScenario(path) {
                    printError("\(command): \(path): \(what), not a scenario: skipped")
                } else {
                    files.append(path)
                }
                continue
            }
            guard let walker = manager.enumerator(atPath: path) else {
                printError("\(command): \(path): cannot list the folder")
                throw ExitCause.invalidInput.exit
            }
            var found: [String] = []
            for case let relative as String in walker where relative.hasSuffix(".json") && notAScenario(relative) == nil {
                found.append((path as NSString).appendingPathComponent(relative))
            }
            if found.isEmpty {
                printError("\(command): \(path): no .json scenario files in this folder")
                throw ExitCause.invalidInput.exit
            }
            files += found.sorted()
        }
        if files.isEmpty {
            printError("\(command): no scenario file among \(paths.joined(separator: " "))")
            throw ExitCause.invalidInput.exit
        }
        return files
    }

    /// What a JSON file of a suite's folder is when it is not a scenario: the requirement catalog or a JSON schema
    /// (a shell's `Scenarios/*.json` names them too); nil for anything else.
    static func notAScenario(_ path: String) -> String? {
        if (path as NSString).lastPathComponent == RequirementCatalog.fileName { return "the requirement catalog" }
        if path.hasSuffix(".schema.json") { return "a JSON schema" }
        return nil
    }

    /// `Scenarios: no such file or folder in /home/me (hil looks for relative paths in the folder it runs in);
    /// pass the scenario files or folders to use, e.g. hil validate path/to/Scenarios`
    static func missing(_ path: String, in folder: String, command: String) -> String {
        guard !path.hasPrefix("/") else {
            return "\(path): no such file or folder; pass the scenario files or folders to use"
        }
        return "\(path): no such file or folder in \(folder) (hil looks for relative paths in the folder it runs in); "
            + "pass the scenario files or folders to use, e.g. \(command) path/to/\(path)"
    }

    /// Loads every scenario and checks it by the rule hil validate, replay and record apply (`ScenarioValidity`), and
    /// returns them with the catalog `hil run --list` shows coverage against (`RequirementCatalog.find(for:)`, the
    /// same in any order of the paths). Reports every problem (with file, line and column and JSON path) and ends
    /// `command` with exit status 64 (invalid input) when there was any, before anything runs.
    static func load(_ paths: [String], command: String) throws -> ([Scenario], RequirementCatalog?) {
        var catalogs = RequirementCatalogs()
        var listed: RequirementCatalog?
        if let file = RequirementCatalog.find(for: paths) {
            switch catalogs.catalog(at: file) {
            case .success(let catalog): listed = catalog
            case .failure(let error):
                printError(error.description)
                printError("\(command): the requirement catalog has problems; nothing was run")
                throw ExitCause.invalidInput.exit
            }
        }
        var scenarios: [Scenario] = []
        var problems = 0
        var validity = ScenarioValidity()
        for file in try expand(paths, command: command) {
            let checked = validity.check(file)
            for problem in checked.problems { printError(problem) }
            if let scenario = checked.scenario { scenarios.append(scenario) } else { problems += 1 }
        }
        for note in validity.notes { printError(note) }
        if problems > 0 {
            printError("\(command): \(problems) file(s) with problems; nothing was run")
            throw ExitCause.invalidInput.exit
        }
        return (scenarios, listed)
    }
}
