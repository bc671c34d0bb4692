package import Foundation
import System

/// Runs in time order, read from their output folders: what `hil report --history` draws.
package struct RunHistory: Sendable {
    /// One run: its folder and its results.
    package struct Run: Sendable {
        /// The run's folder (where its results.json is), as given or found.
        package var folder: String
        package var results: RunResults
        /// `startedAt` read as a date; nil when the file has none.
        package var date: Date?
        /// Found in a folder of runs (not named directly): `prune` may remove it.
        package var found: Bool
        /// The night's `hil mutants` results beside it (`mutants/mutations.json`, as nightly.sh writes it), if any.
        package var mutations: MutationResults?

        package init(folder: String, results: RunResults, found: Bool = false) {
            self.folder = folder
            self.results = results
            self.found = found
            date = results.startedAt.flatMap(RunHistory.date)
            mutations = try? MutationResults.load(contentsOf: folder + "/" + RunHistory.mutationsFile)
        }

        /// `96.2 % (50 of 52)`, or nil without mutation results.
        package var mutationScore: String? {
            guard let mutations, let score = mutations.score else { return nil }
            let caught = mutations.counted.filter { $0.outcome == .caught }.count
            return String(format: "%.1f %%", score * 100) + " (\(caught) of \(mutations.counted.count))"
        }

        /// The folder's name: `2025-11-30T0230`.
        package var name: String { URL(fileURLWithPath: folder).lastPathComponent }
    }

    /// Where a run folder keeps its mutation results (nightly.sh: `hil mutants run --output <night>/mutants`).
    package static let mutationsFile = "mutants/mutations.json"

    /// A folder under a history folder that is not a readable run, and why.
    package struct Skipped: Sendable, Equatable {
        package var folder: String
        package var reason: String
    }

    /// Oldest first: by `startedAt`, then by folder (runs without `startedAt` first).
    package var runs: [Run]
    /// Folders under a history folder that hold no readable run, in folder order.
    package var skipped: [Skipped]

    package init(runs: [Run], skipped: [Skipped] = []) {
        self.runs = runs.sorted { ($0.date ?? .distantPast, $0.folder) < ($1.date ?? .distantPast, $1.folder) }
        self.skipped = skipped
    }

    /// Reads runs from folders. A folder holding results.json is one run; any other folder holds runs, one per
    /// subfolder with a results.json (`hil run --output` folders, such as nightly.sh's). Symbolic links among the
    /// subfolders (nightly.sh's `latest`) are passed over, and a folder reached twice counts once.
    ///
    /// - Parameter folders: run folders and folders of runs, in any order.
    /// - Returns: the runs in time order; a subfolder whose results.json cannot be read (or that has none) is
    ///   skipped with its reason, so one broken night does not hide the others.
    /// - Throws: `ReportError` when a folder does not exist, when a run folder named directly cannot be read, or
    ///   when a folder of runs holds none.
    package static func load(_ folders: [String]) throws(ReportError) -> RunHistory {
        var runs: [Run] = []
        var skipped: [Skipped] = []
        var seen: Set<String> = []
        let files = FileManager.default
        for folder in folders {
            var isFolder: ObjCBool = false
            guard files.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw ReportError(.unreadable, file: folder, problems: ["not a folder"],
                                  hint: "give run folders (hil run --output) or a folder holding them")
            }
            if files.fileExists(atPath: folder + "/results.json") {
                guard seen.insert(canonical(folder)).inserted else { continue }
                runs.append(Run(folder: folder, results: try RunResults.load(contentsOf: folder + "/results.json")))
                continue
            }
            let found = runs.count
            for child in subfolders(of: folder) where seen.insert(canonical(child)).inserted {
                guard files.fileExists(atPath: child + "/results.json") else {
                    skipped.append(Skipped(folder: child, reason: "no results.json (the run did not get to write it)"))
                    continue
                }
                do {
                    runs.append(Run(folder: child, results: try RunResults.load(contentsOf: child + "/results.json"), found: true))
                } catch {
                    skipped.append(Skipped(folder: child, reason: error.problems.first ?? error.code.rawValue))
                }
            }
            if runs.count == found {
                throw ReportError(
                    .noRuns, file: folder, problems: ["no results.json in this folder or in its subfolders"],
                    hint: "give the folder hil run --output wrote, or the folder holding such folders")
            }
        }
        return RunHistory(runs: runs, skipped: skipped)
    }

    /// Removes the oldest runs found in folders of runs, with their whole folders, until `newest` of those remain
    /// (nightly.sh's retention); runs named directly, and skipped folders (a person should look at those), stay.
    ///
    /// - Parameter newest: how many found runs to keep, at least 1.
    /// - Returns: the folders removed, oldest first.
    /// - Throws: `ReportError` (`.cannotWrite`) naming the folder that could not be removed; the ones before it are gone.
    @discardableResult
    package mutating func prune(keeping newest: Int) throws(ReportError) -> [String] {
        precondition(newest >= 1, "a history keeps at least one run")
        let found = runs.indices.filter { runs[$0].found }
        let old = Set(found.dropLast(newest))
        var removed: [String] = []
        for index in runs.indices where old.contains(index) {
            let folder = runs[index].folder
            do {
                try FileManager.default.removeItem(atPath: folder)
            } catch {
                runs.removeAll { removed.contains($0.folder) }
                throw ReportError(.cannotWrite, file: folder,
                                  problems: ["cannot remove this old run: \(FileAccess.reason(of: error))"],
                                  hint: "check the folder's permissions, or remove it by hand")
            }
            removed.append(folder)
        }
        runs.removeAll { removed.contains($0.folder) }
        return removed
    }

    /// `2025-11-30T02:30:04Z` (as `hil run` writes it), also with fractional seconds or an offset.
    package static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// The folder's subfolders that are not symbolic links, sorted by name.
    static func subfolders(of folder: String) -> [String] {
        let files = FileManager.default
        let names = (try? files.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().compactMap { name in
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            guard let attributes = try? files.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType == .typeDirectory
            else { return nil }
            return path
        }
    }

    private static func canonical(_ folder: String) -> String {
        URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
