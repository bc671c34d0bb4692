import HILTestSupport
import LatencyStats
import Records
import Testing

@Suite("Merging the shards of a run")
struct MergeTests {
    // Shard 1: 40 fast swipes; shard 2: 10 slow ones. The p95 of the union is not the mean of the shards' p95s.
    let fastSwipes = ResultsFixtures.samples(40, in: 100...200, seed: 1)
    let slowSwipes = ResultsFixtures.samples(10, in: 400...800, seed: 2)
    let taps1 = ResultsFixtures.samples(25, in: 6...12, seed: 3)
    let taps2 = ResultsFixtures.samples(15, in: 8...30, seed: 4)

    func shards() throws -> (TemporaryFolder, [String]) {
        let folder = try TemporaryFolder()
        let first = try folder.write(
            ResultsFixtures.shard(index: 1, count: 2, host: "nightly-1", swipes: fastSwipes, taps: taps1),
            to: "box1/results.json")
        let second = try folder.write(
            ResultsFixtures.shard(index: 2, count: 2, host: "nightly-2", swipes: slowSwipes, taps: taps2, failing: true),
            to: "box2/results.json")
        return (folder, [first, second])
    }

    @Test("percentiles are recomputed from the union of the samples, never averaged")
    func recomputed() throws {
        let (folder, paths) = try shards()
        let one = try RunResults.load(contentsOf: paths[0])
        let two = try RunResults.load(contentsOf: paths[1])
        let merged = try RunResults.merge([one, two])
        withExtendedLifetime(folder) {}

        #expect(merged.latencyRecomputed)
        let swipe = try #require(merged.latency.kind("swipe"))
        #expect(swipe.summary == LatencyRecorder(fastSwipes + slowSwipes).summary)
        #expect(merged.latency.kind("tap")?.summary == LatencyRecorder(taps1 + taps2).summary)
        #expect(merged.latency.all == LatencyRecorder(fastSwipes + slowSwipes + taps1 + taps2).summary)
        #expect(merged.latency.all.count == 90)

        // What averaging would give is far off.
        let averaged = (try #require(one.latency.kind("swipe")?.summary.p95) + (try #require(two.latency.kind("swipe")?.summary.p95))) / 2
        let p95 = try #require(swipe.summary.p95)
        #expect(abs(p95 - averaged) > 50)

        // Stages too, from every step's stagesMs.
        for stage in LatencyStage.allCases {
            let samples = merged.scenarios.flatMap(\.steps).filter { $0.kind == "swipe" }.compactMap { $0.stagesMs?[stage] }
            #expect(samples.count == 50)
            #expect(swipe.stages[stage] == LatencyRecorder(samples).summary)
        }
    }

    @Test("scenarios in shard order, counts summed, every environment kept with its shard")
    func structure() throws {
        let (folder, paths) = try shards()
        // Given in reverse: merged in shard order.
        let merged = try RunResults.merge(try paths.reversed().map { path throws in try RunResults.load(contentsOf: path) })
        #expect(merged.scenarios.map(\.name) == ["swipes of shard 1", "taps of shard 1", "swipes of shard 2", "taps of shard 2"])
        #expect(merged.passed == 3 && merged.failed == 1)
        #expect(merged.environments.map(\.host) == ["nightly-1", "nightly-2"])
        #expect(merged.environments.map(\.shard) == [RunShard(index: 1, count: 2), RunShard(index: 2, count: 2)])
        #expect(merged.shard == nil)
        #expect(merged.missingShards.isEmpty)
        #expect(merged.sources == paths)
        #expect(merged.startedAt == "2026-11-21T09:11:00Z")
        #expect(merged.wallMs == 32_000)
        #expect(merged.rig == "hardware")
        withExtendedLifetime(folder) {}
    }

    @Test("the merged document is a results.json again: same scenarios, environments and latency")
    func mergedFile() throws {
        let (folder, paths) = try shards()
        let merged = try RunResults.merge(try paths.map { path throws in try RunResults.load(contentsOf: path) })
        let written = try folder.write(merged.jsonText, to: "merged.json")
        let again = try RunResults.load(contentsOf: written)
        #expect(again.scenarios == merged.scenarios)
        #expect(again.environments == merged.environments)
        #expect(again.latency == merged.latency)
        #expect(!again.latencyRecomputed)
        #expect(merged.jsonText.contains("\"environments\" : ["))
        // And merging it with nothing else changes nothing; merging it with one of its shards is refused.
        #expect(try RunResults.merge([again]) == again)
        let twice = try #require(throws: ReportError.self) {
            try RunResults.merge([again, try RunResults.load(contentsOf: paths[1])])
        }
        #expect(twice.code == .inconsistentShards)
        #expect(twice.problems == ["shard 2/2 is in both \(written) and \(paths[1])"])
        withExtendedLifetime(folder) {}
    }

    @Test("the same file twice, and two whole runs: refused, each naming the files")
    func notShards() throws {
        let whole = try RunResults.parse(Array(ResultsFixtures.older.utf8), file: "a/results.json")
        let again = try RunResults.parse(Array(ResultsFixtures.older.utf8), file: "./a/results.json")
        let twice = try #require(throws: ReportError.self) { try RunResults.merge([whole, again]) }
        #expect(twice.problems == ["a/results.json is given 2 times (as a/results.json and ./a/results.json): a run's results count once"])
        let other = try RunResults.parse(Array(ResultsFixtures.older.utf8), file: "b/results.json")
        let runs = try #require(throws: ReportError.self) { try RunResults.merge([whole, other]) }
        #expect(runs.problems.count == 1 && runs.problems[0].hasPrefix("a/results.json and b/results.json are whole runs, not shards of one run"),
                "\(runs.problems)")
        // A shard given twice is the same file twice too: said once, as such.
        let shard = try RunResults.parse(Array(ResultsFixtures.shard(index: 1, count: 2, host: "x", swipes: [1], taps: [2]).utf8), file: "s.json")
        let same = try #require(throws: ReportError.self) { try RunResults.merge([shard, shard]) }
        #expect(same.problems == ["s.json is given 2 times (as s.json and s.json): a run's results count once"])
    }

    @Test("shards of different splits, whole runs mixed with shards, a missing shard")
    func inconsistent() throws {
        let third = try RunResults.parse(
            Array(ResultsFixtures.shard(index: 1, count: 3, host: "x", swipes: [1], taps: [2]).utf8), file: "c.json")
        let first = try RunResults.parse(
            Array(ResultsFixtures.shard(index: 2, count: 2, host: "y", swipes: [1], taps: [2]).utf8), file: "b.json")
        let split = try #require(throws: ReportError.self) { try RunResults.merge([first, third]) }
        #expect(split.problems == ["shards of runs split in different ways: b.json (shard 2/2); c.json (shard 1/3)"])

        let whole = try RunResults.parse(Array(ResultsFixtures.older.utf8), file: "old.json")
        let mixed = try #require(throws: ReportError.self) { try RunResults.merge([whole, first]) }
        #expect(mixed.problems.first?.hasPrefix("old.json: a whole run (no shard)") == true)

        #expect(first.missingShards == [1])
        #expect(throws: ReportError.self) { try RunResults.merge([]) }
    }
}
