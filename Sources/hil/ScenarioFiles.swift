import ArgumentParser
import Foundation
import GestureScript
import Scenario

/// Expands files and folders given on the command line into the JSON files to run, sorted, so runs are
/// repeatable. Folders are searched recursively for `*.json`; `*.schema.json` files and the requirement
/// catalog (`requirements.json`) are not scenarios.
enum ScenarioFiles {
    /// The scenario files under `paths`. A path that is not there is named with the folder it was looked for in,
    /// on standard error (not with the usage of all of hil), and ends `command` with exit status 64.
    static func expand(_ paths: [String], command: String) throws -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                printError("\(command): \(missing(path, in: manager.currentDirectoryPath, command: command))")
                throw ExitCode.validationFailure
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            guard let walker = manager.enumerator(atPath: path) else {
                throw ValidationError("\(path): cannot list the folder")
            }
            var found: [String] = []
            for case let relative as String in walker
            where relative.hasSuffix(".json") && !relative.hasSuffix(".schema.json")
                && (relative as NSString).lastPathComponent != "requirements.json" {
                found.append((path as NSString).appendingPathComponent(relative))
            }
            if found.isEmpty {
                throw ValidationError("\(path): no .json scenario files in this folder")
            }
            files += found.sorted()
        }
        return files
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

    /// Loads every scenario, checks each one's requirement ids against its own catalog (the nearest above it), and
    /// returns them with the catalog of the first path (what `hil run --list` shows coverage against). Reports
    /// every problem (with file, line and column and JSON path) and throws when there was any, before anything runs.
    static func load(_ paths: [String], command: String) throws -> ([Scenario], RequirementCatalog?) {
        var catalogs = RequirementCatalogs()
        var listed: RequirementCatalog?
        if let file = RequirementCatalog.find(for: paths) {
            switch catalogs.catalog(at: file) {
            case .success(let catalog): listed = catalog
            case .failure(let error):
                printError(error.description)
                printError("\(command): the requirement catalog has problems; nothing was run")
                throw ExitCode.failure
            }
        }
        var scenarios: [Scenario] = []
        var problems = 0
        var reportedCatalogs: Set<String> = []
        for file in try expand(paths, command: command) {
            do {
                let scenario = try Scenario.load(contentsOf: file)
                switch catalogs.catalog(forFile: file) {
                case .success(let catalog)?:
                    let unknown = catalog.unknownIDs(in: scenario)
                    if !unknown.isEmpty {
                        problems += 1
                        printError(ScriptError(file: file, located: unknown).description)
                        continue
                    }
                case .failure(let error)?:
                    if reportedCatalogs.insert(error.file).inserted { printError(error.description) }
                    problems += 1
                    continue
                case nil:
                    break
                }
                scenarios.append(scenario)
            } catch {
                problems += 1
                printError(error.description)
            }
        }
        if problems > 0 {
            printError("\(command): \(problems) file(s) with problems; nothing was run")
            throw ExitCode.failure
        }
        return (scenarios, listed)
    }
}
