import ArgumentParser
import Foundation

/// Expands files and folders given on the command line into the JSON files to run, sorted, so runs are
/// repeatable. Folders are searched recursively for `*.json`; `*.schema.json` files are not scenarios.
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
            where relative.hasSuffix(".json") && !relative.hasSuffix(".schema.json") {
                found.append((path as NSString).appendingPathComponent(relative))
            }
            if found.isEmpty {
                throw ValidationError("\(path): no .json scenario files in this folder")
            }
            files += found.sorted()
        }
        return files
    }
}
