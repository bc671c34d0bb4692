import Records
import Report
import Testing

@Suite("Where a run's time went, from its scenarios' phases")
struct PhaseBreakdownTests {
    static func record(_ name: String, durationMs: Double?, _ phases: [(String, Double)]?) -> ScenarioResult {
        ScenarioResult(file: name + ".json", name: name, outcome: .passed, steps: [], durationMs: durationMs, phasesMs: phases?.map { ScenarioResult.Phase(name: $0.0, atMs: $0.1) })
    }

    @Test("each phase's time runs from the end of the one before; the steps apart, the rest is overhead")
    func spans() {
        let time = PhaseBreakdown([
            Self.record("a", durationMs: 2000, [("peripheral registered", 300), ("connected", 500), ("steps done", 1500), ("peripheral stopped", 1900)]),
            Self.record("b", durationMs: 3000, [("peripheral registered", 400), ("connected", 700), ("steps done", 2700), ("peripheral stopped", 2900)]),
            Self.record("c", durationMs: 2500, [("peripheral registered", 200), ("connected", 600), ("steps done", 1100), ("peripheral stopped", 1200)]),
            // R10: the computer refused to start; no phases, not counted.
            Self.record("refused", durationMs: 900, nil),
        ])
        #expect(time.scenarios == 3)
        #expect(time.phases.map(\.name) == ["peripheral registered", "connected", "steps done", "peripheral stopped"])
        #expect(time.phases.map(\.medianMs) == [300, 300, 1000, 200])
        #expect(time.phases[0].totalMs == 900)
        #expect(time.stepsTotalMs == 1000 + 2000 + 500)
        // Overheads 1000, 1000, 2000: the scenario's whole duration less its steps.
        #expect(time.overheadTotalMs == 4000)
        #expect(time.overheadMedianMs == 1000)
        #expect(time.summaryLine == "3 scenarios: steps 3.5 s, overhead 4.0 s (median 1.00 s a scenario)")
        #expect(time.table.split(separator: "\n").count == 5)
    }

    @Test("an even count's median is the mean of the middle two; a run without phases has none")
    func medians() {
        let time = PhaseBreakdown([
            Self.record("a", durationMs: 1000, [("steps done", 100)]),
            Self.record("b", durationMs: 1000, [("steps done", 300)]),
        ])
        #expect(time.phases.first?.medianMs == 200)
        #expect(time.overheadMedianMs == 800)
        let none = PhaseBreakdown([Self.record("refused", durationMs: 900, nil)])
        #expect(none.scenarios == 0 && none.phases.isEmpty && none.overheadMedianMs == nil)
    }

    @Test("the run line names the rig's bring-up and the wall time when the results have them")
    func runLine() {
        let records = [Self.record("a", durationMs: 2000, [("steps done", 1500)])]
        var results = RunResults(rig: "vm", wallMs: 9000, environments: [RunEnvironment(rig: "vm", rigUpMs: 5800)], scenarios: records)
        #expect(PhaseBreakdown(records).runLine(results)
            == "rig up in 5.8 s, then 9.0 s in all; 1 scenario: steps 1.5 s, overhead 0.5 s (median 0.50 s a scenario).")
        results.environments = []
        results.wallMs = nil
        #expect(PhaseBreakdown(records).runLine(results) == "1 scenario: steps 1.5 s, overhead 0.5 s (median 0.50 s a scenario).")
    }
}
