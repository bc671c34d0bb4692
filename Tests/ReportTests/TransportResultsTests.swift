import Records
import Report
import Testing

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
