import Foundation
package import GestureScript
import StrictJSON

/// The acceptance criteria a suite covers (`Scenarios/requirements.json`): ids, short texts, and for those
/// the rig cannot observe, why. Scenarios name ids from it; `hil run --list` shows the coverage.
package struct RequirementCatalog: Sendable {
    package struct Requirement: Sendable, Hashable {
        package var id: String
        package var text: String
        /// Nil when the rig can observe it; else why not.
        package var notObservable: String?

        package init(id: String, text: String, notObservable: String? = nil) {
            self.id = id
            self.text = text
            self.notObservable = notObservable
        }
    }

    package static let fileName = "requirements.json"

    package var file: String
    package var requirements: [Requirement]

    package init(file: String, requirements: [Requirement]) {
        self.file = file
        self.requirements = requirements
    }

    /// Reads a catalog, reporting every problem with the file and JSON path.
    package static func load(contentsOf path: String) throws(ScriptError) -> RequirementCatalog {
        let (value, positions) = try GestureScript.readLocatedJSON(contentsOf: path)
        var problems = JSONProblems()
        var requirements: [Requirement] = []
        var seen: Set<String> = []
        if let object = problems.attempt({ () throws(JSONSchemaError) in try value.object(at: .root) }) {
            problems.rejectUnknownKeys(of: object, allowed: ["about", "requirements"], at: .root)
            let listPath = JSONPath.root.appending("requirements")
            let list = problems.attempt { () throws(JSONSchemaError) in try object.required("requirements", at: .root).array(at: listPath) } ?? []
            for (index, element) in list.enumerated() {
                let at = listPath.appending(index)
                guard let entry = problems.attempt({ () throws(JSONSchemaError) in try element.object(at: at) }) else { continue }
                problems.rejectUnknownKeys(of: entry, allowed: ["id", "text", "observable", "why"], at: at)
                guard let id = problems.attempt({ () throws(JSONSchemaError) in try entry.required("id", at: at).string(at: at.appending("id")) }),
                      let text = problems.attempt({ () throws(JSONSchemaError) in try entry.required("text", at: at).string(at: at.appending("text")) })
                else { continue }
                if !seen.insert(id).inserted { problems.append(JSONSchemaError(at.appending("id"), "\(id) is listed twice")) }
                let observable = entry["observable"].flatMap { v in problems.attempt { () throws(JSONSchemaError) in try v.bool(at: at.appending("observable")) } } ?? true
                let why = entry["why"].flatMap { v in problems.attempt { () throws(JSONSchemaError) in try v.string(at: at.appending("why")) } }
                if !observable && why == nil {
                    problems.append(JSONSchemaError(at, "a requirement the rig cannot observe says why (\"why\")"))
                }
                requirements.append(Requirement(id: id, text: text, notObservable: observable ? nil : (why ?? "")))
            }
        }
        if !problems.list.isEmpty { throw ScriptError(file: path, problems: problems.list, positions: positions) }
        return RequirementCatalog(file: path, requirements: requirements)
    }

    /// The catalog `hil run --list` shows coverage against, whatever the order of `paths`: of the catalogs found for
    /// the paths (`requirements.json` in a given folder or above a given file or folder, links resolved, so the
    /// nightly suite's link to the quick suite's is one catalog), the one most paths have, the first by name on a
    /// tie; nil when none has one. (Each scenario's ids are checked against its own catalog: `find(forFile:)`.)
    package static func find(for paths: [String]) -> String? {
        let found = paths.compactMap { find(from: $0).map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } }
        let counts = Dictionary(found.map { ($0, 1) }, uniquingKeysWith: +)
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.first?.key
    }

    /// The catalog of one scenario file: the `requirements.json` nearest above it (in its folder, or the one above
    /// that, …); nil when there is none. Which other paths were given does not matter.
    package static func find(forFile file: String) -> String? {
        find(from: file)
    }

    /// `requirements.json` in `path` when it is a folder, else in the folder holding it, or in one above.
    private static func find(from path: String) -> String? {
        var folder = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        if !(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue) {
            folder.deleteLastPathComponent()
        }
        while true {
            let candidate = folder.appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    /// Ids a scenario names that the catalog does not have, as problems of the scenario's file (with the closest
    /// id the catalog has, when one is close).
    package func unknownIDs(in scenario: Scenario) -> [ScriptError.Problem] {
        unknownIDs(scenario.script.requirements, positions: scenario.positions)
    }

    /// The same for a file that did not read as a scenario: its `requirements` list, if it has one of strings, so
    /// an unknown id is told with the file's other problems, not after they are mended.
    package func unknownIDs(inFile file: String) -> [ScriptError.Problem] {
        guard let (value, positions) = try? GestureScript.readLocatedJSON(contentsOf: file),
              case .object(let object) = value, case .array(let list)? = object["requirements"]
        else { return [] }
        let ids = list.map { element -> String in if case .string(let id) = element { id } else { "" } }
        return unknownIDs(ids, positions: positions)
    }

    private func unknownIDs(_ named: [String], positions: JSONPositions?) -> [ScriptError.Problem] {
        let ids = requirements.map(\.id)
        let known = Set(ids)
        return named.enumerated().compactMap { index, id in
            guard !id.isEmpty, !known.contains(id) else { return nil }
            let path = JSONPath.root.appending("requirements").appending(index)
            let suggestion = Suggestion.closest(to: id, among: ids).map { " (did you mean \($0)?)" } ?? ""
            return ScriptError.Problem(
                "\(path): \(id) is not in \(file)\(suggestion); add it there or fix the id", at: positions?.location(of: path))
        }
    }

    /// Each requirement with the scenarios that name it, in catalog order.
    package func coverage(_ scenarios: [Scenario]) -> [(requirement: Requirement, scenarios: [Scenario])] {
        requirements.map { requirement in
            (requirement, scenarios.filter { $0.script.requirements.contains(requirement.id) })
        }
    }
}

/// Each scenario file's catalog (`RequirementCatalog.find(forFile:)`), each catalog read once however many files
/// share it, so files are checked alike in any order and whichever paths were given with them.
package struct RequirementCatalogs {
    private var loaded: [String: Result<RequirementCatalog, ScriptError>] = [:]

    package init() {}

    /// The catalog at `path`, read on first use.
    package mutating func catalog(at path: String) -> Result<RequirementCatalog, ScriptError> {
        if let known = loaded[path] { return known }
        let result: Result<RequirementCatalog, ScriptError>
        do {
            result = .success(try RequirementCatalog.load(contentsOf: path))
        } catch {
            result = .failure(error)
        }
        loaded[path] = result
        return result
    }

    /// The catalog of `file`; nil when no `requirements.json` is above it.
    package mutating func catalog(forFile file: String) -> Result<RequirementCatalog, ScriptError>? {
        RequirementCatalog.find(forFile: file).map { catalog(at: $0) }
    }
}
