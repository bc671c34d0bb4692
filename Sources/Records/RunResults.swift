import Foundation
import System
package import StrictJSON

/// A results document (`results.json`, format `hil-results/1`, docs/results-format.md): one run, one shard of
/// a run, or several shards merged.
package struct RunResults: Sendable, Equatable {
    /// The format this version reads and writes.
    package static let format = "hil-results/1"

    /// The files these results were read from: one, or one per merged shard; empty when built in memory.
    package var sources: [String]
    package var rig: String?
    /// ISO 8601, as written by `hil run`; for merged shards the earliest.
    package var startedAt: String?
    /// The run's wall time; for merged shards (run side by side on several boxes) the longest.
    package var wallMs: Double?
    /// The file's own shard; nil for a whole run and for merged shards.
    package var shard: RunShard?
    /// Where the run ran: one entry, or one per merged shard (each with its shard).
    package var environments: [RunEnvironment]
    package var passed: Int
    /// Scenarios that did not pass: failed, inconclusive or error.
    package var failed: Int
    package var latency: RunLatency
    /// True when `latency` was computed here from the steps' samples (merged shards, or a file without it).
    package var latencyRecomputed: Bool
    package var scenarios: [ScenarioResult]
    /// Top-level keys this version does not know, kept as they were.
    package var additional: JSONObject

    package init(sources: [String] = [], rig: String? = nil, startedAt: String? = nil, wallMs: Double? = nil,
                shard: RunShard? = nil, environments: [RunEnvironment] = [], passed: Int? = nil, failed: Int? = nil,
                latency: RunLatency? = nil, scenarios: [ScenarioResult], additional: JSONObject = JSONObject())
    {
        self.sources = sources
        self.rig = rig
        self.startedAt = startedAt
        self.wallMs = wallMs
        self.shard = shard
        self.environments = environments
        self.passed = passed ?? scenarios.filter { $0.outcome == .passed }.count
        self.failed = failed ?? scenarios.filter(\.outcome.isFailure).count
        self.latency = latency ?? RunLatency.recomputed(from: scenarios)
        self.latencyRecomputed = latency == nil
        self.scenarios = scenarios
        self.additional = additional
    }

    /// Reads and checks a results file.
    ///
    /// Unknown keys are kept, missing optional ones are fine (older files lack `stagesMs`, `shard`,
    /// `environment`, `latency`); a file without `latency` gets it recomputed from its steps.
    ///
    /// - Parameter path: the results.json to read.
    /// - Returns: the results, with `sources == [path]`.
    /// - Throws: `ReportError` naming the file and, for every problem, its JSON path:
    ///   `results/a.json: scenarios[3].steps[0].latencyMs: expected a number, found a string`.
    package static func load(contentsOf path: String) throws(ReportError) -> RunResults {
        switch FileAccess.read(path) {
        case .success(let data) where data.isEmpty:
            throw ReportError(
                .invalidJSON, file: path, problems: ["is empty, not a results document"],
                hint: "hil run writes results.json into its --output folder: give that file, or the folder")
        case .success(let data):
            return try parse(data, file: path)
        case .failure(let problem):
            throw ReportError(
                .unreadable, file: path, problems: ["cannot read it: \(problem.reason)"],
                hint: "check the path; hil run writes results.json into its --output folder")
        }
    }

    /// Parses the bytes of a results document; `file` names it in errors.
    ///
    /// - Throws: `ReportError` with the file, and a line and column or a JSON path for each problem.
    package static func parse(_ bytes: some Collection<UInt8>, file: String) throws(ReportError) -> RunResults {
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw ReportError(.invalidJSON, file: file, problems: ["not valid JSON: \(error.description)"])
        }
        return try parse(value, file: file)
    }

    /// Checks a parsed results document; `file` names it in errors.
    ///
    /// - Throws: `ReportError` listing every problem with its JSON path.
    package static func parse(_ value: JSONValue, file: String) throws(ReportError) -> RunResults {
        var reader = ResultsReader()
        let results = reader.results(value, source: file)
        guard let results, reader.problems.list.isEmpty else {
            throw ReportError(
                .invalidResults, file: file, problems: reader.problems.list.map(\.description),
                hint: "docs/results-format.md describes the format")
        }
        return results
    }

    /// The step kinds of the run, in `latency.byKind` order.
    package var kinds: [String] { latency.byKind.map(\.kind) }

    /// Every step latency of a kind, in run order: the samples behind its percentiles.
    package func samples(ofKind kind: String) -> [Double] {
        scenarios.flatMap(\.steps).filter { $0.kind == kind }.compactMap(\.latencyMs)
    }

    /// Every sample of one stage of a kind, in run order.
    package func samples(ofKind kind: String, stage: LatencyStage) -> [Double] {
        scenarios.flatMap(\.steps).filter { $0.kind == kind && $0.latencyMs != nil }.compactMap { $0.stagesMs?[stage] }
    }

    /// The scenarios that did not pass, in run order.
    package var failures: [ScenarioResult] { scenarios.filter(\.outcome.isFailure) }

    /// The scenarios not run because they do not apply to the transport asked for.
    package var notApplicable: [ScenarioResult] { scenarios.filter { $0.outcome == .notApplicable } }

    /// For merged shards of an n-shard run, the shard numbers that are not among them.
    package var missingShards: [Int] {
        let shards = environments.compactMap(\.shard)
        guard let count = shards.first?.count else { return [] }
        let present = Set(shards.map(\.index))
        return (1...max(count, 1)).filter { !present.contains($0) }
    }
}

extension RunResults {
    /// The same results with every capture path made absolute, from `folder` (where their results.json is).
    package func capturesAbsolute(from folder: String) -> RunResults {
        var results = self
        for index in results.scenarios.indices {
            results.scenarios[index].captures = results.scenarios[index].captures.map { capture in
                guard !capture.path.hasPrefix("/") else { return capture }
                return .init(kind: capture.kind, path: URL(fileURLWithPath: folder).appendingPathComponent(capture.path).path)
            }
        }
        return results
    }

    /// The same results with every absolute capture path made relative to `folder`, where the file that will hold
    /// them (a merged results.json, report.html, junit.xml) is written: links that still hold when the whole folder
    /// is moved or uploaded as a CI artifact. Relative paths are left as they are (already relative to their
    /// results.json's folder, which is `folder` when the report sits beside it).
    package func capturesRelative(to folder: String) -> RunResults {
        var results = self
        for index in results.scenarios.indices {
            results.scenarios[index].captures = results.scenarios[index].captures.map { capture in
                guard capture.path.hasPrefix("/") else { return capture }
                return .init(kind: capture.kind, path: Self.relativePath(capture.path, from: folder))
            }
        }
        return results
    }

    /// `path` as seen from `folder`, both made absolute (from the current folder) and standardized, `..` where
    /// they part: `/data/run1/003/hci.btsnoop` from `/data/report` is `../run1/003/hci.btsnoop`.
    package static func relativePath(_ path: String, from folder: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL.pathComponents
        var common = 0
        while common < min(target.count, base.count) && target[common] == base[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
