import HILTestSupport
import Records
import Report
import Testing

@Suite("The Markdown summary")
struct MarkdownSummaryTests {
    @Test("snapshot: totals, failures with their first reason, latency per kind")
    func snapshot() throws {
        let results = try ResultsFixtures.realisticResults()
        let expected = """
            ❌ **hil run: 2 passed, 2 failed (1 error)** (4 scenarios on vm, 13 step latencies, p95 221.7 ms)

            ### Failures

            | scenario | outcome | first reason |
            |---|---|---|
            | a tap clicks, two taps within 300 ms double-click | failed | steps[2] (tap) failed: expected within 40 ms (10 ms × latency scale 4): BTN_LEFT 1, BTN_LEFT 0, BTN_LEFT 1, BTN_LEFT 0 |
            | media keys in media mode | error | the device under test failed: hil peripheral exited with status 1 before advertising |

            ### Latency by gesture kind (ms)

            | kind | count | p50 | p95 | p99 | max |
            |---|---:|---:|---:|---:|---:|
            | button | 6 | 8.41 | 13.1 | 13.1 | 13.1 |
            | swipe | 3 | 182.5 | 221.7 | 221.7 | 221.7 |
            | tap | 4 | 9.70 | 48.2 | 48.2 | 48.2 |
            | **all** | 13 | 10.4 | 221.7 | 221.7 | 221.7 |

            ### Where the time went

            61.2 s in all; 3 scenarios: steps 3.7 s, overhead 4.6 s (median 1.53 s a scenario).

            | phase | median ms | total s |
            |---|---:|---:|
            | connected | 1130 | 3.4 |
            | steps done | 1400 | 3.7 |

            """
        #expect(MarkdownSummary.render(results) == expected)
    }

    @Test("regressions against a baseline get their own table; pipes and newlines in names stay in their cell")
    func regressions() throws {
        let swipes = (0..<12).map { StepResult(index: $0, kind: "swipe", outcome: .passed, latencyMs: 200 + Double($0)) }
        let taps = (0..<40).map { StepResult(index: 12 + $0, kind: "tap", outcome: .passed, latencyMs: 8 + Double($0 % 5) / 10) }
        let scenario = ScenarioResult(
            file: "a.json", name: "swipe | fast\nand far", outcome: .failed, steps: swipes + taps,
            message: "p95 250 ms over the 200 ms limit\nmore")
        let current = RunResults(rig: "hardware", scenarios: [scenario])
        let comparison = BaselineComparison(current: current.samplesByGroup, reference: [
            (LatencyGroup(transport: nil, kind: "swipe"), (0..<20).map { 150 + Double($0) / 2 }),
            (LatencyGroup(transport: nil, kind: "tap"), (0..<38).map { 8 + Double($0 % 5) / 10 }),
        ])
        let markdown = MarkdownSummary.render(current, baseline: comparison)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("❌ **hil run: 0 passed, 1 failed** (1 scenario on hardware, 52 step latencies") == true)
        #expect(lines.first?.hasSuffix(", 1 group regressed)") == true)
        #expect(lines.contains("| swipe \\| fast and far | failed | p95 250 ms over the 200 ms limit |"))
        #expect(lines.contains("### Regressions against the baseline"))
        let table = try #require(lines.firstIndex(of: "### Regressions against the baseline"))
        let row = try #require(lines[table...].first { $0.hasPrefix("| swipe | ") })
        #expect(row.contains(" ms (+"), "the shift in ms and %: \(row)")
        #expect(row.hasSuffix("| < 0.0001 | 20 → 12 |"), "\(row)")
        #expect(!lines[table...].contains { $0.hasPrefix("| tap |") })
        #expect(markdown.hasSuffix("(docs/report.md, \"The regression rule\").\n"))
    }

    @Test("no regression: one line says how many groups were judged and which improved")
    func noRegression() {
        let taps = (0..<40).map { StepResult(index: $0, kind: "tap", outcome: .passed, latencyMs: 5 + Double($0 % 7) / 10) }
        let current = RunResults(scenarios: [ScenarioResult(file: "t.json", name: "taps", outcome: .passed, steps: taps)])
        let comparison = BaselineComparison(current: current.samplesByGroup, reference: [
            (LatencyGroup(transport: nil, kind: "tap"), (0..<40).map { 8 + Double($0 % 7) / 10 }),
        ])
        let markdown = MarkdownSummary.render(current, baseline: comparison)
        #expect(markdown.hasPrefix("✅ **hil run: 1 passed, 0 failed**"))
        #expect(markdown.hasSuffix("No regression against the baseline (1 group judged; improved: tap).\n"))
    }
}

@Suite("The line a run ends with")
struct RunTotalsTests {
    @Test("failed counts every scenario that did not pass, and says how many were inconclusive or errors")
    func line() {
        #expect(RunTotals.line([.passed, .passed]) == "2 passed, 0 failed")
        #expect(RunTotals.line([.passed, .failed, .inconclusive, .error, .error, .notApplicable])
            == "1 passed, 4 failed (1 inconclusive, 2 errors), 1 not applicable")
        #expect(RunTotals.line([.inconclusive]) == "0 passed, 1 failed (1 inconclusive)")
        #expect(RunTotals.line([]) == "0 passed, 0 failed")
    }
}
