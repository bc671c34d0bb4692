import ArgumentParser
import Foundation
import Scenario

/// Expands files and folders given on the command line into the JSON files to run, sorted, so runs are
/// repeatable. Folders are searched recursively for `*.json`; `*.schema.json` files and the requirement
/// catalog (`requirements.json`) are not scenarios.
enum ScenarioFiles {
    static func expand(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ValidationError("\(path): no such file or folder")
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

    /// Loads every scenario and the requirement catalog found for `paths`; reports every problem (with file
    /// and JSON path, ids not in the catalog included) and throws when there was any, before anything runs.
    static func load(_ paths: [String], command: String) throws -> ([Scenario], RequirementCatalog?) {
        var catalog: RequirementCatalog?
        if let file = RequirementCatalog.find(for: paths) {
            do {
                catalog = try RequirementCatalog.load(contentsOf: file)
            } catch {
                printError(error.description)
                printError("\(command): the requirement catalog has problems; nothing was run")
                throw ExitCode.failure
            }
        }
        var scenarios: [Scenario] = []
        var problems = 0
        for file in try expand(paths) {
            do {
                let scenario = try Scenario.load(contentsOf: file)
                let unknown = catalog?.unknownIDs(in: scenario) ?? []
                if !unknown.isEmpty {
                    problems += 1
                    printError(unknown.map { "\(file): \($0)" }.joined(separator: "\n"))
                    continue
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
        return (scenarios, catalog)
    }
}
