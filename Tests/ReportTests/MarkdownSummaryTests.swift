import LatencyStats
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
    func regressions() {
        let scenario = ScenarioResult(
            file: "a.json", name: "swipe | fast\nand far", outcome: .failed, steps: [], message: "p95 250 ms over the 200 ms limit\nmore")
        let current = RunResults(
            rig: "hardware",
            latency: RunLatency(all: LatencySummary(count: 52, p50: 20, p95: 250, p99: 260, max: 270), byKind: [
                KindLatency(kind: "swipe", summary: LatencySummary(count: 12, p50: 180, p95: 250, p99: 260, max: 270)),
                KindLatency(kind: "tap", summary: LatencySummary(count: 40, p50: 8, p95: 9.5, p99: 11, max: 12)),
            ]),
            scenarios: [scenario])
        let baseline = RunLatency(all: .empty, byKind: [
            KindLatency(kind: "swipe", summary: LatencySummary(count: 20, p50: 150, p95: 200, p99: 210, max: 215)),
            KindLatency(kind: "tap", summary: LatencySummary(count: 38, p50: 8, p95: 9, p99: 10, max: 11)),
        ])
        let markdown = MarkdownSummary.render(current, baseline: BaselineComparison(current: current.latency, baseline: baseline))
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "❌ **hil run: 0 passed, 1 failed** (1 scenario on hardware, 52 step latencies, p95 250.0 ms, 1 kind regressed)")
        #expect(lines.contains("| swipe \\| fast and far | failed | p95 250 ms over the 200 ms limit |"))
        #expect(lines.contains("### Regressions against the baseline"))
        #expect(lines.contains("| swipe | 200.0 | 250.0 | 1.25× | +50.0 ms | 20 → 12 |"))
        #expect(!lines.contains { $0.hasPrefix("| tap | 9.00") })
        #expect(markdown.hasSuffix("|\n"))
    }

    @Test("no regression: one line says how many kinds were judged and which improved")
    func noRegression() {
        let current = RunResults(
            latency: RunLatency(all: .empty, byKind: [
                KindLatency(kind: "tap", summary: LatencySummary(count: 40, p50: 5, p95: 6, p99: 7, max: 8)),
            ]),
            scenarios: [])
        let baseline = RunLatency(all: .empty, byKind: [
            KindLatency(kind: "tap", summary: LatencySummary(count: 40, p50: 8, p95: 9, p99: 10, max: 11)),
        ])
        let markdown = MarkdownSummary.render(current, baseline: BaselineComparison(current: current.latency, baseline: baseline))
        #expect(markdown.hasPrefix("✅ **hil run: 0 passed, 0 failed**"))
        #expect(markdown.hasSuffix("No regression against the baseline (1 kind judged; improved: tap).\n"))
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
