import Foundation

extension RunResults {
    /// Merges the shards of one run, run side by side on several boxes, into one results document.
    ///
    /// Scenarios are concatenated in shard order (files without a shard keep the order given), passed and failed
    /// are summed, every shard's environment is kept (`environments`, each with its shard), and `latency` is
    /// recomputed from the union of the steps' `latencyMs` and `stagesMs` samples (`RunLatency.recomputed`):
    /// percentiles of the shards are never averaged.
    ///
    /// - Parameter parts: results of single shards, or of shards already merged.
    /// - Returns: the merged results; a single part unchanged.
    /// - Throws: `ReportError` (`.inconsistentShards`) when nothing is given, when one file is given twice, when the
    ///   parts come from runs split into different numbers of shards, when a shard is given twice, when two whole runs
    ///   are given (they are not shards of one run), or when whole runs and shards are mixed; each names the files.
    package static func merge(_ parts: [RunResults]) throws(ReportError) -> RunResults {
        guard let first = parts.first else {
            throw ReportError(.inconsistentShards, file: nil, problems: ["no results to merge"])
        }
        if parts.count == 1 { return first }
        try checkShards(parts)
        let ordered = parts.enumerated().sorted { lhs, rhs in
            let left = lhs.element.shardIndices.min() ?? Int.max
            let right = rhs.element.shardIndices.min() ?? Int.max
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)

        var environments: [RunEnvironment] = []
        for part in ordered {
            if part.environments.isEmpty {
                // An older file without `environment`: keep at least its shard and rig.
                environments.append(RunEnvironment(shard: part.shard, rig: part.rig))
            } else {
                environments += part.environments
            }
        }
        var rigs: [String] = []
        for rig in ordered.compactMap(\.rig) where !rigs.contains(rig) { rigs.append(rig) }
        let scenarios = ordered.flatMap(\.scenarios)
        var merged = RunResults(
            sources: ordered.flatMap(\.sources), rig: rigs.isEmpty ? nil : rigs.joined(separator: ", "),
            startedAt: ordered.compactMap(\.startedAt).min(), wallMs: ordered.compactMap(\.wallMs).max(),
            shard: nil, environments: environments, passed: ordered.reduce(0) { $0 + $1.passed },
            failed: ordered.reduce(0) { $0 + $1.failed }, latency: nil, scenarios: scenarios)
        merged.latencyRecomputed = true
        return merged
    }

    /// The shards a part holds: its own, or those of the shards merged into it.
    var shardIndices: [Int] { shards.map(\.index) }

    var shards: [RunShard] {
        if let shard { return [shard] }
        return environments.compactMap(\.shard)
    }

    /// Each file given more than once, however its path was written (`a/results.json`, `./a/results.json`).
    private static func duplicates(_ parts: [RunResults]) -> [String] {
        var byFile: [String: [String]] = [:]
        var order: [String] = []
        for source in parts.flatMap(\.sources) {
            let file = URL(fileURLWithPath: source).standardizedFileURL.resolvingSymlinksInPath().path
            if byFile[file] == nil { order.append(file) }
            byFile[file, default: []].append(source)
        }
        return order.compactMap { file in
            guard let given = byFile[file], given.count > 1 else { return nil }
            return "\(given[0]) is given \(given.count) times (as \(given.joined(separator: " and "))): a run's results count once"
        }
    }

    private static func name(_ part: RunResults) -> String {
        part.sources.isEmpty ? "(results in memory)" : part.sources.joined(separator: " + ")
    }

    private static func checkShards(_ parts: [RunResults]) throws(ReportError) {
        // A file given twice: that, and not what follows from it (its shard in both, two whole runs).
        let twice = duplicates(parts)
        guard twice.isEmpty else {
            throw ReportError(.inconsistentShards, file: nil, problems: twice, hint: "give each results.json once")
        }
        var problems: [String] = []
        let sharded = parts.filter { !$0.shards.isEmpty }
        if sharded.isEmpty {
            problems.append("\(parts.map(name).joined(separator: " and ")) are whole runs, not shards of one run (hil run "
                + "--shard i/n writes those): report each run on its own, or compare one with the other through --baseline")
        }
        if !sharded.isEmpty && sharded.count != parts.count {
            let whole = parts.filter { $0.shards.isEmpty }.map(name).joined(separator: ", ")
            problems.append(
                "\(whole): a whole run (no shard), merged with shards of a run: merge only the shards of one run")
        }
        let counts = Set(sharded.flatMap(\.shards).map(\.count))
        if counts.count > 1 {
            let list = sharded.map { "\(name($0)) (shard \($0.shards.map(\.description).joined(separator: ", ")))" }
            problems.append("shards of runs split in different ways: \(list.joined(separator: "; "))")
        }
        var seen: [Int: String] = [:]
        for part in sharded {
            for shard in part.shards {
                if let other = seen[shard.index] {
                    problems.append("shard \(shard) is in both \(other) and \(name(part))")
                } else {
                    seen[shard.index] = name(part)
                }
            }
        }
        if !problems.isEmpty {
            throw ReportError(
                .inconsistentShards, file: nil, problems: problems,
                hint: "pass each shard's results.json of one run once (hil run --shard i/n writes shard i of n); a whole run is "
                    + "reported alone")
        }
    }
}
