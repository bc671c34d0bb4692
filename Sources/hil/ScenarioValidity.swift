import Foundation
import GestureScript
import Scenario

/// The one rule of what a valid scenario file is, which `hil validate`, `hil replay`, `hil run` and `hil record`
/// all apply: the file reads as a scenario (every problem with its file, line and column, and JSON path), it
/// checks something (a scenario with no expectation passes whatever happens), no rig could fail it by its own
/// definition (`Scenario.feasibilityProblems`), and its requirement ids are in the
/// requirements.json nearest above it. A file with no catalog above it is valid, its ids unchecked, and `notes` says
/// so once per folder; a catalog with problems makes every file under it invalid, its problems told once.
struct ScenarioValidity {
    /// One file's verdict: its scenario when valid, else nil; the problems to print (a broken catalog's own problems
    /// with the first file under it, then one line per file that its ids cannot be checked); how many in all.
    struct Checked {
        var scenario: Scenario?
        var problems: [String]
        var count: Int
    }

    private var catalogs = RequirementCatalogs()
    private var toldCatalogs: Set<String> = []
    private var toldFolders: Set<String> = []
    /// What a reader should know that is not a problem: folders whose files have no requirements.json above them.
    private(set) var notes: [String] = []

    /// Reads `file` and applies the rule.
    mutating func check(_ file: String) -> Checked {
        do {
            return check(try Scenario.load(contentsOf: file), file: file)
        } catch {
            // Its requirement ids are checked too, so they are told with the other problems.
            guard !error.located.isEmpty, case .success(let catalog)? = catalogs.catalog(forFile: file) else {
                return Checked(scenario: nil, problems: [error.description], count: max(1, error.located.count))
            }
            let all = error.located + catalog.unknownIDs(inFile: file)
            return Checked(scenario: nil, problems: [ScriptError(file: file, located: all).description], count: all.count)
        }
    }

    /// Applies the rule to `scenario`, read from (or about to be written to) `file`.
    mutating func check(_ scenario: Scenario, file: String) -> Checked {
        var problems: [ScriptError.Problem] = (scenario.checksNothingProblem.map { [$0] } ?? []) + scenario.feasibilityProblems
        var told: [String] = []
        var catalogBroken = false
        switch catalogs.catalog(forFile: file) {
        case .success(let catalog)?:
            problems += catalog.unknownIDs(in: scenario)
        case .failure(let error)?:
            catalogBroken = true
            if toldCatalogs.insert(error.file).inserted { told.append(error.description) }
            told.append("\(file): its requirement ids cannot be checked: \(error.file) has problems")
        case nil:
            let folder = (file as NSString).deletingLastPathComponent
            if !scenario.script.requirements.isEmpty, toldFolders.insert(folder).inserted {
                notes.append("note: no \(RequirementCatalog.fileName) above \(folder.isEmpty ? "." : folder): the requirement ids of its scenarios are not checked")
            }
        }
        if !problems.isEmpty { told.append(ScriptError(file: file, located: problems).description) }
        let valid = problems.isEmpty && !catalogBroken
        return Checked(scenario: valid ? scenario : nil, problems: told, count: problems.count + (catalogBroken ? 1 : 0))
    }
}
