package import RigControl
import Foundation
import StrictJSON

/// The rig files of a `Rigs/` folder, and where that folder is.
package struct RigCatalog: Sendable {
    /// The folder the rig files were read from.
    package let directory: String
    package let rigs: [RigDefinition]

    /// Reads every `*.json` file of `directory` as a rig.
    /// - Throws: `RigError.rigFile` naming each bad file and JSON path, all at once.
    package init(directory: String) throws(RigError) {
        self.directory = directory
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else {
            throw RigError(.rigFile, "\(directory): cannot list the rig folder", hint: "pass --rigs DIR, or run from the project folder")
        }
        var rigs: [RigDefinition] = []
        var problems: [String] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                let rig = try RigCatalog.load(path)
                if let other = rigs.first(where: { $0.name == rig.name }) {
                    problems.append("\(path): name: \"\(rig.name)\" is already the name of another rig (\(other.kind.rawValue))")
                } else {
                    rigs.append(rig)
                }
            } catch {
                problems.append(error.what)
            }
        }
        guard problems.isEmpty else {
            throw RigError(.rigFile, problems.joined(separator: "\n"), hint: "fix the rig file; Rigs/README.md describes every key")
        }
        guard !rigs.isEmpty else {
            throw RigError(.rigFile, "\(directory): no rig files (*.json)", hint: "pass --rigs DIR pointing at the project's Rigs folder")
        }
        self.rigs = rigs
    }

    /// Reads one rig file.
    /// - Throws: `RigError.rigFile` with `file: json.path: problem` lines.
    package static func load(_ path: String) throws(RigError) -> RigDefinition {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RigError(.rigFile, "\(path): cannot read the rig file (missing or unreadable)")
        }
        let value: JSONValue
        do {
            value = try JSONParser().parse(data)
        } catch {
            throw RigError(.rigFile, "\(path): not valid JSON: \(error.description)")
        }
        do {
            return try RigDefinition.parse(value)
        } catch {
            throw RigError(.rigFile, error.problems.map { "\(path): \($0)" }.joined(separator: "\n"))
        }
    }

    /// The rig named `name`; when there is none, the error names the rigs there are, only those of `kind` when the
    /// command takes one kind (`hil vm exec`: vm rigs).
    package func rig(named name: String, of kind: RigDefinition.Kind? = nil) throws(RigError) -> RigDefinition {
        guard let rig = rigs.first(where: { $0.name == name }) else {
            let choices = rigs.filter { kind == nil || $0.kind == kind }.map(\.name)
            throw RigError(
                .unknownRig, "no \(kind.map { "\($0.rawValue) " } ?? "")rig named \"\(name)\" in \(directory)",
                hint: "choose one of: " + (["auto"] + choices).joined(separator: ", "))
        }
        return rig
    }

    /// The `Rigs/` folder: `$HIL_RIGS`, else the nearest `Rigs/` holding `vm.json` above the current folder,
    /// else above the running executable (a `.build/debug/hil` finds its package's `Rigs/`).
    package static func locate(executable: String = CommandLine.arguments[0]) -> String? {
        if let explicit = (try? RigEnvironment.current())?.rigsFolder { return explicit }
        let manager = FileManager.default
        var starts = [manager.currentDirectoryPath]
        let binary = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent().path
        starts.append(binary)
        for start in starts {
            var folder = URL(fileURLWithPath: start)
            while true {
                let candidate = folder.appendingPathComponent("Rigs")
                if manager.fileExists(atPath: candidate.appendingPathComponent("vm.json").path) {
                    return candidate.path
                }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        return nil
    }
}
