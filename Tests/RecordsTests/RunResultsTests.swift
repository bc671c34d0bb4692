import HILTestSupport
import LatencyStats
import Records
import Testing

@Suite("Reading results.json")
struct RunResultsTests {
    @Test("a realistic file: run facts, environment, scenarios, steps, stages and the file's latency")
    func realistic() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(ResultsFixtures.realistic, to: "results/results.json")
        let results = try RunResults.load(contentsOf: path)

        #expect(results.sources == [path])
        #expect(results.rig == "vm")
        #expect(results.startedAt == "2026-11-21T09:10:00Z")
        #expect(results.wallMs == 61234)
        #expect(results.shard == nil)
        #expect(results.passed == 2 && results.failed == 2)
        #expect(!results.latencyRecomputed)

        let environment = try #require(results.environments.first)
        #expect(results.environments.count == 1)
        #expect(environment.kernel == "6.1.0-56-amd64")
        #expect(environment.bluez == "5.66")
        #expect(environment.latencyScale == 4)
        #expect(environment.peripheralAdapter == "hci0" && environment.centralAdapter == "hci1")
        #expect(environment.host == "nightly-1")
        #expect(environment.writePath == nil)

        #expect(results.scenarios.map(\.outcome) == [.passed, .failed, .passed, .error])
        let taps = results.scenarios[1]
        #expect(taps.requirements == ["R2.1", "R2.3"])
        #expect(taps.durationMs == 3350)
        #expect(taps.latencyMs == LatencySummary(count: 4, p50: 9.7, p95: 48.2, p99: 48.2, max: 48.2))
        #expect(taps.steps[2].outcome == .failed)
        #expect(taps.steps[2].stagesMs == [.gesture: 0, .link: 46.8, .peripheral: 1.33, .kernel: 0.07])
        #expect(taps.steps[2].message.contains("+48.2 ms  BTN_LEFT 1"))
        #expect(taps.steps[3].stagesMs == nil)
        #expect(taps.firstReason.hasPrefix("steps[2] (tap) failed: expected within 40 ms"))
        #expect(results.scenarios[3].latencyMs == LatencySummary(count: 0, p50: nil, p95: nil, p99: nil, max: nil))
        #expect(results.scenarios[3].firstReason == "the device under test failed: hil peripheral exited with status 1 before advertising")
        // hil run's own scenario keys are read into the record, in the file's order.
        #expect(results.scenarios[0].phasesMs
            == [.init(name: "connected", atMs: 1130), .init(name: "steps done", atMs: 1700)])
        #expect(results.scenarios[0].statusNotifications == 1)
        #expect(results.scenarios[0].repetition == 1)
        #expect(results.scenarios[0].additional.count == 0)

        #expect(results.kinds == ["button", "swipe", "tap"])
        let button = try #require(results.latency.kind("button"))
        #expect(button.summary == LatencySummary(count: 6, p50: 8.407, p95: 13.1, p99: 13.1, max: 13.1))
        #expect(button.stages[.link] == LatencySummary(count: 6, p50: 7.203, p95: 11.6, p99: 11.6, max: 11.6))
        #expect(results.latency.all.count == 13)
        #expect(results.samples(ofKind: "tap") == [9.7, 8.8, 48.2, 10.4])
        #expect(results.samples(ofKind: "tap", stage: .link) == [8.4, 7.5, 46.8])
        withExtendedLifetime(folder) {}
    }

    @Test("the file's latency section is what HdrHistogram gives for its steps")
    func fixtureIsConsistent() throws {
        let results = try ResultsFixtures.realisticResults()
        #expect(results.latency == RunLatency.recomputed(from: results.scenarios))
    }

    @Test("a broken file: every problem, each with the file and its JSON path")
    func broken() throws {
        // Four scenarios before the broken one, as in `scenarios[3]` of a real run.
        var scenarios = Array(repeating: """
            { "file": "Scenarios/a.json", "name": "a", "outcome": "passed",
              "steps": [ { "index": 0, "kind": "tap", "outcome": "passed", "latencyMs": 4.5 } ] }
            """, count: 3)
        scenarios.append("""
            { "file": "Scenarios/b.json", "name": "b", "outcome": "crashed",
              "steps": [ { "index": 0, "kind": "tap", "outcome": "passed", "latencyMs": "4.5 ms" },
                         { "index": 1, "outcome": "passed", "stagesMs": { "link": true } } ] }
            """)
        let text = """
            { "format": "hil-results/1", "passed": "three", "failed": 1,
              "shard": { "index": 3, "count": 2 },
              "scenarios": [ \(scenarios.joined(separator: ",\n")) ] }
            """
        let folder = try TemporaryFolder()
        let path = try folder.write(text, to: "results/a.json")
        let error = try #require(throws: ReportError.self) { try RunResults.load(contentsOf: path) }
        #expect(error.code == .invalidResults)
        #expect(error.file == path)
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines.contains("\(path): scenarios[3].steps[0].latencyMs: expected a number, found a string"))
        #expect(lines.contains("\(path): passed: expected a whole number, found a string"))
        #expect(lines.contains("\(path): shard.index: shard 3 of 2: the index is at most the count"))
        #expect(lines.contains(
            "\(path): scenarios[3].outcome: unknown value \"crashed\"; expected one of \"passed\", \"failed\", \"inconclusive\", \"error\", \"notApplicable\""))
        #expect(lines.contains("\(path): scenarios[3].steps[1]: missing required key \"kind\""))
        #expect(lines.contains("\(path): scenarios[3].steps[1].stagesMs.link: expected a number, found a boolean"))
        #expect(error.problems.count == 6)
        #expect(error.description.contains("docs/results-format.md"))
        withExtendedLifetime(folder) {}
    }

    @Test("not JSON, a missing file, another format: each says which file and what is wrong")
    func unreadable() throws {
        let folder = try TemporaryFolder()
        let truncated = try folder.write("{ \"passed\": 1,\n  \"scenarios\": [", to: "cut.json")
        let cut = try #require(throws: ReportError.self) { try RunResults.load(contentsOf: truncated) }
        #expect(cut.code == .invalidJSON)
        #expect(cut.description.hasPrefix("\(truncated): not valid JSON: line 2, column"))

        let missing = folder.path + "/nothing-here.json"
        let absent = try #require(throws: ReportError.self) { try RunResults.load(contentsOf: missing) }
        #expect(absent.code == .unreadable)
        #expect(absent.description.hasPrefix("\(missing): cannot read it: No such file or directory (errno 2)"))

        let future = try folder.write(#"{ "format": "hil-results/2", "passed": 0, "failed": 0, "scenarios": [] }"#, to: "v2.json")
        let newer = try #require(throws: ReportError.self) { try RunResults.load(contentsOf: future) }
        #expect(newer.problems == [
            "format: \"hil-results/2\" is not a format this hil reads (hil-results/1); report it with the hil that wrote it",
        ])
        withExtendedLifetime(folder) {}
    }

    @Test("an older file without format, shard, environment, stages or latency: latency recomputed from its steps")
    func olderFile() throws {
        let results = try RunResults.parse(Array(ResultsFixtures.older.utf8), file: "old/results.json")
        #expect(results.shard == nil)
        #expect(results.environments.isEmpty)
        #expect(results.latencyRecomputed)
        #expect(results.scenarios[0].latencyMs == LatencySummary(count: 3, p50: 5.2, p95: 9.9, p99: nil, max: 9.9))
        #expect(results.latency.all == LatencyRecorder([5.2, 3.1, 9.9]).summary)
        #expect(results.latency.byKind.map(\.kind) == ["swipe", "tap"])
        #expect(results.latency.kind("swipe")?.summary == LatencyRecorder([5.2, 9.9]).summary)
        #expect(results.latency.kind("swipe")?.stages.isEmpty == true)
        #expect(results.latency == RunLatency.recomputed(from: results.scenarios))
    }

    @Test("written back as results.json, a document reads the same (unknown keys too)")
    func roundTrip() throws {
        var results = try ResultsFixtures.realisticResults()
        results.additional.set("futureKey", ["kept"])
        let again = try RunResults.parse(Array(results.jsonText.utf8), file: "again.json")
        #expect(again.scenarios == results.scenarios)
        #expect(again.environments == results.environments)
        #expect(again.latency == results.latency)
        #expect(again.additional["futureKey"] == ["kept"])
        #expect((again.passed, again.failed, again.rig, again.startedAt, again.wallMs)
            == (results.passed, results.failed, results.rig, results.startedAt, results.wallMs))
        #expect(again.jsonText == results.jsonText)
    }
}
