import Records
import Report
import Testing

@Suite("The radio each step ran under: in results.json, grouped on the history page")
struct StepRadioTests {
    static func step(_ index: Int, _ radio: String?) -> StepResult {
        var step = StepResult(index: index, kind: index == 1 ? "radio" : "tap", outcome: .passed, commands: 1, latencyMs: 9)
        step.radio = radio
        return step
    }

    static let results = RunResults(scenarios: [
        ScenarioResult(file: "radio/slowing.json", name: "slowing [ble]", outcome: .passed, steps: [
            step(0, nil), step(1, "connection interval 30.0 ms"), step(2, "connection interval 30.0 ms"),
            step(3, "blackout 3000 ms, connection interval 30.0 ms"), step(4, "the rig's own"),
        ], transport: "ble"),
    ])

    @Test("a step's radio survives a write and a read; a step before any radio step has none")
    func roundTrip() throws {
        let again = try RunResults.parse(Array(Self.results.jsonText.utf8), file: "again.json")
        #expect(again.scenarios[0].steps.map(\.radio) == Self.results.scenarios[0].steps.map(\.radio))
        #expect(again.scenarios[0].steps[0].radio == nil && again.scenarios[0].steps[0].additional.isEmpty)
        #expect(Self.results.jsonText.contains(#""radio" : "connection interval 30.0 ms""#))
    }

    @Test("the history page groups consecutive steps under the same radio, in the scenario's row")
    func history() {
        #expect(ScenarioGrid.radio(of: Self.results.scenarios[0].steps)
            == "steps 1–2: connection interval 30.0 ms; step 3: blackout 3000 ms, connection interval 30.0 ms; step 4: the rig's own")
        #expect(ScenarioGrid.radio(of: [Self.step(0, nil)]) == nil)
        let page = HistoryPage.render(HistoryAnalysis(RunHistory(runs: [RunHistory.Run(folder: "one", results: Self.results)])))
        #expect(page.contains("radio: steps 1–2: connection interval 30.0 ms;"))
    }

    @Test("a run whose radio steps moved the interval: the report's header and summary say so, the scenario's row says which steps")
    func reportSaysWhatMoved() {
        var environment = RunEnvironment(rig: "vm")
        environment.radioModel = "connectionEvents"
        environment.radioIntervalMs = 15
        var results = Self.results
        results.environments = [environment]
        let html = HTMLReport.render(results)
        #expect(html.contains("radio connection events every 15 ms at the start; radio steps changed it in 1 scenario"))
        #expect(html.contains("radio: steps 1–2: connection interval 30.0 ms;"))
        #expect(MarkdownSummary.render(results).contains("radio connection events every 15 ms at the start; radio steps changed it in 1 scenario"))
        results.scenarios[0].steps = [Self.step(0, nil)]
        #expect(HTMLReport.render(results).contains("radio connection events every 15 ms ·"))
    }

    @Test("junit.xml: a radio step's message is on that step, in the scenario's system-out, passed or failed")
    func junitHasTheRadioStep() {
        var results = Self.results
        results.scenarios[0].steps[1].outcome = .unchecked
        results.scenarios[0].steps[1].message = "radio: connection interval 30.0 ms"
        #expect(results.junitXML.contains("<system-out>steps[1] (radio) unchecked: radio: connection interval 30.0 ms</system-out>"),
                "\(results.junitXML)")
        results.scenarios[0].outcome = .failed
        results.scenarios[0].steps[2].outcome = .failed
        results.scenarios[0].steps[2].message = "expected BTN_LEFT 1, got nothing"
        #expect(results.junitXML.contains("<system-out>steps[1] (radio) unchecked: radio: connection interval 30.0 ms</system-out>"))
    }
}
