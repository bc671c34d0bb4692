import Foundation
import LatencyStats
import Records
@testable import Report
import StrictJSON
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

@Suite("Transports in results: not applicable is no failure, latency by transport")
struct TransportResultsTests {
    static let results = RunResults(scenarios: [
        ScenarioResult(file: "a.json", name: "tap [ble]", outcome: .passed,
                       steps: [StepResult(index: 0, kind: "tap", outcome: .passed, commands: 1, latencyMs: 12)], transport: "ble"),
        ScenarioResult(file: "a.json", name: "tap [tcp]", outcome: .passed,
                       steps: [StepResult(index: 0, kind: "tap", outcome: .passed, commands: 1, latencyMs: 5)], transport: "tcp"),
        ScenarioResult(file: "b.json", name: "gatt only [tcp]", outcome: .notApplicable, steps: [], message: "not applicable on tcp: ble only", transport: "tcp"),
    ])

    @Test("a not-applicable scenario is neither passed nor failed; JUnit marks it skipped; the totals say so")
    func notApplicable() throws {
        #expect(Self.results.passed == 2)
        #expect(Self.results.failed == 0)
        #expect(Self.results.failures.isEmpty)
        #expect(Self.results.notApplicable.map(\.name) == ["gatt only [tcp]"])
        #expect(Self.results.junitXML.contains(#"<skipped message="not applicable on tcp: ble only"/>"#))
        #expect(MarkdownSummary.render(Self.results).contains("2 passed, 0 failed, 1 not applicable"))
    }

    @Test("each scenario's transport survives a write and a read")
    func roundTrip() throws {
        let text = Self.results.jsonText(everyEnvironmentKey: false)
        #expect(text.contains(#""transport" : "tcp""#))
        let back = try RunResults.parse(Array(text.utf8), file: "results.json")
        #expect(back.scenarios.map(\.transport) == ["ble", "tcp", "tcp"])
        #expect(back.scenarios.map(\.outcome) == [.passed, .passed, .notApplicable])
    }

    @Test("latency by transport, from the samples")
    func latencyByTransport() {
        let entries = TransportLatency.of(Self.results.scenarios)
        #expect(entries.map(\.transport) == ["ble", "tcp"])
        #expect(entries.map(\.summary.count) == [1, 1])
        #expect(MarkdownSummary.render(Self.results).contains("### Latency by transport (ms)"))
        #expect(HTMLReport.render(Self.results).contains("<h2>Latency by transport</h2>"))
    }

    @Test("the radio that produced the numbers: in the header, beside ble (not tcp) in the transport table, in the conditions")
    func radio() throws {
        var results = Self.results
        results.environments = [RunEnvironment(rig: "vm", radio: "btvirt", radioModel: "connectionEvents", radioIntervalMs: 7.5)]
        #expect(results.radioSummary == "connection events every 7.5 ms")
        let html = HTMLReport.render(results)
        #expect(html.contains("rig vm · radio connection events every 7.5 ms") || html.contains("radio connection events every 7.5 ms ·"))
        #expect(html.contains("<th>radio</th>"))
        #expect(html.contains("<td>connection events every 7.5 ms</td>"))
        #expect(html.components(separatedBy: "<td>connection events every 7.5 ms</td>").count == 2, "only the ble row names it")
        #expect(MarkdownSummary.render(results).contains("radio connection events every 7.5 ms"))
        // The conditions: an immediate run reads as a file from before the model was recorded.
        let immediate = RunResults(environments: [RunEnvironment(radio: "btvirt", radioModel: "immediate")], scenarios: [])
        let older = RunResults(environments: [RunEnvironment(radio: "btvirt")], scenarios: [])
        #expect(immediate.conditions.changes(since: older.conditions).isEmpty)
        #expect(results.conditions.changes(since: immediate.conditions).map(\.description)
            == ["radio btvirt → btvirt, connection events every 7.5 ms"])
        // Read back from results.json.
        let back = try RunResults.parse(Array(results.jsonText(everyEnvironmentKey: false).utf8), file: "results.json")
        #expect(back.environments.first?.radioModel == "connectionEvents" && back.environments.first?.radioIntervalMs == 7.5)
    }
}

@Suite("junit.xml of results with no message")
struct JUnitMessageTests {
    @Test("a not-applicable scenario with no message is skipped as \"not applicable\"; a failure's message is its step's first line, the rest under it")
    func emptyMessages() {
        let results = RunResults(scenarios: [
            ScenarioResult(file: "a.json", name: "tcp only", outcome: .notApplicable),
            ScenarioResult(
                file: "b.json", name: "fails", outcome: .failed,
                steps: [StepResult(index: 0, kind: "tap", outcome: .failed, message: "expected BTN_LEFT 1\nactual nothing")]),
        ])
        let xml = results.junitXML
        #expect(xml.contains(#"<skipped message="not applicable"/>"#), "\(xml)")
        // The message attribute is the step's most specific line; the body has the rest under it.
        #expect(xml.contains(#"<failure message="steps[0] (tap) failed: expected BTN_LEFT 1" type="failed">"#), "\(xml)")
        #expect(xml.contains("steps[0] (tap) failed: expected BTN_LEFT 1\n  actual nothing"), "\(xml)")
    }
}

/// The phone that drove ble and hid (issue 52), named where a CI and a person look: results.json's environment and
/// each scenario, junit.xml's suite, the report's header, the Markdown summary's totals.
@Suite("The phone's stack and profile in every output")
struct PhoneInResultsTests {
    @Test("bumble:ios-like in the environment and on the scenario: in results.json, junit.xml, the report and the summary")
    func named() throws {
        var scenario = ScenarioResult(file: "Scenarios/cursor/swipe-right.json", name: "swipe right [ble]", outcome: .passed)
        scenario.transport = "ble"
        scenario.phone = "bumble:minimal mtu=23"
        let environment = RunEnvironment(rig: "vm", phone: "bumble:ios-like")
        let json = RunReport.json([scenario], environment: environment, startedAt: Date(timeIntervalSince1970: 0), wallMs: 1)
        let read = try RunResults.parse(try JSONParser().parse(json), file: "results.json")
        #expect(read.environments.first?.phone == "bumble:ios-like" && read.scenarios.first?.phone == "bumble:minimal mtu=23")
        #expect(RunReport.junit([scenario], environment: environment).contains("<property name=\"phone\" value=\"bumble:ios-like\"/>"))
        #expect(!RunReport.junit([scenario]).contains("property name=\"phone\""))
        #expect(HTMLReport.render(read).contains("phone bumble:ios-like"))
        #expect(MarkdownSummary.totalsLine(read, baseline: nil).contains("phone bumble:ios-like"))
    }
}
