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
}
