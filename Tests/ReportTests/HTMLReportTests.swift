import Foundation
import FoundationXML
import HILTestSupport
import Records
import Report
import Testing

@Suite("The HTML report")
struct HTMLReportTests {
    /// The realistic run, with a passing scenario named like an attack and a baseline in which buttons were faster.
    static func report() throws -> (html: String, results: RunResults) {
        var results = try ResultsFixtures.realisticResults()
        results.scenarios[0].name = "<script>alert(\"x\")</script> & 'co'"
        let comparison = BaselineComparison(
            current: results.samplesByGroup,
            reference: [(LatencyGroup(transport: nil, kind: "button"), ResultsFixtures.samples(20, in: 1...2, seed: 1))])
        return (HTMLReport.render(results, baseline: comparison), results)
    }

    static func document(_ html: String) throws -> XMLDocument {
        try XMLDocument(xmlString: html, options: [])
    }

    static func elements(_ node: XMLNode) -> [XMLElement] {
        var found: [XMLElement] = []
        for child in node.children ?? [] {
            if let element = child as? XMLElement { found.append(element) }
            found += elements(child)
        }
        return found
    }

    @Test("well-formed markup that an XML parser reads")
    func wellFormed() throws {
        let (html, _) = try Self.report()
        let document = try Self.document(html)
        #expect(document.rootElement()?.name == "html")
        #expect(html.hasPrefix("<!DOCTYPE html>\n"))
    }

    @Test("no network references: no scripts, no external src, href or url(), only in-page links")
    func selfContained() throws {
        let (html, _) = try Self.report()
        #expect(!html.contains("http://") && !html.contains("https://"))
        #expect(!html.lowercased().contains("url("))
        #expect(!html.lowercased().contains("@import"))
        for element in Self.elements(try Self.document(html)) {
            #expect(element.name != "script" && element.name != "link" && element.name != "img" && element.name != "iframe")
            for attribute in element.attributes ?? [] {
                let value = attribute.stringValue ?? ""
                #expect(attribute.name != "src", "src on <\(element.name ?? "?")>")
                #expect(!value.contains("//"), "\(attribute.name ?? "?")=\"\(value)\" on <\(element.name ?? "?")>")
                if attribute.name == "href" { #expect(value.hasPrefix("#")) }
            }
        }
    }

    @Test("text is escaped: a <script> in a scenario name stays text")
    func escaping() throws {
        let (html, results) = try Self.report()
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;"))
        let cells = Self.elements(try Self.document(html)).filter { $0.name == "td" }.compactMap(\.stringValue)
        #expect(cells.contains { $0.hasPrefix(results.scenarios[0].name) })
    }

    @Test("failures first, with their failed steps' messages in <pre>; passes only in the scenario list")
    func failuresFirst() throws {
        let (html, results) = try Self.report()
        let failed = results.scenarios[1].name
        let passed = results.scenarios[2].name
        let failedAt = try #require(html.range(of: failed)).lowerBound
        let passedAt = try #require(html.range(of: passed)).lowerBound
        #expect(failedAt < passedAt)
        let sections = Self.elements(try Self.document(html)).filter { $0.name == "section" }.compactMap {
            $0.attribute(forName: "id")?.stringValue
        }
        #expect(sections == ["failures", "latency", "stages", "baseline", "time", "environment", "scenarios"])
        // Where the time went: the phases the scenarios went through, by name, with their medians.
        #expect(html.contains("<h2>Where the time went</h2>"))
        #expect(html.contains("<td>steps done</td>"))

        let articles = Self.elements(try Self.document(html)).filter { $0.name == "article" }
        #expect(articles.count == 2)
        let pre = Self.elements(articles[0]).filter { $0.name == "pre" }.compactMap(\.stringValue)
        #expect(pre == [results.scenarios[1].steps[2].message])
        #expect(pre[0].contains("expected within 40 ms") && pre[0].contains("+48.2 ms  BTN_LEFT 1"))
        #expect(articles[1].stringValue?.contains("hil peripheral exited with status 1") == true)
        #expect(html.contains("<title>hil run: 2 passed, 2 failed (1 error)</title>"))
    }

    @Test("one SVG per chart: a CDF and a histogram per kind with samples, one stage breakdown")
    func charts() throws {
        let (html, results) = try Self.report()
        let svgs = Self.elements(try Self.document(html)).filter { $0.name == "svg" }
        let classes = svgs.compactMap { $0.attribute(forName: "class")?.stringValue }
        #expect(classes.count == svgs.count)
        #expect(classes.filter { $0 == "chart cdf" }.count == results.kinds.count)
        #expect(classes.filter { $0 == "chart histogram" }.count == results.kinds.count)
        #expect(classes.filter { $0 == "chart stages" }.count == 1)
        #expect(svgs.count == 2 * results.kinds.count + 1)
        // The histogram counts every sample of its kind.
        let histogram = try #require(svgs.first { $0.attribute(forName: "class")?.stringValue == "chart histogram" })
        let bars = Self.elements(histogram).filter { $0.name == "rect" }.compactMap(\.stringValue)
        let counted = bars.compactMap { Int($0.split(separator: " ").first ?? "") }.reduce(0, +)
        #expect(counted == results.samples(ofKind: "button").count)
    }

    @Test("the baseline table highlights regressions; the environment and the scenario list are there")
    func tables() throws {
        let (html, _) = try Self.report()
        let rows = Self.elements(try Self.document(html)).filter { $0.name == "tr" }
        let regressed = rows.filter { $0.attribute(forName: "class")?.stringValue == "regressed" }
        #expect(regressed.count == 1)
        #expect(regressed.first.flatMap { Self.elements($0).first?.stringValue } == "button")
        #expect(rows.filter { $0.attribute(forName: "class")?.stringValue == "new" }.count == 2)
        for fact in ["6.1.0-56-amd64", "5.66", "nightly-1", "hci0 / hci1", "×4"] {
            #expect(html.contains("<td>\(fact)</td>"), "environment: \(fact)")
        }
        let scenarioRows = rows.filter {
            ["passed", "failed", "inconclusive", "error"].contains($0.attribute(forName: "class")?.stringValue ?? "")
        }
        #expect(scenarioRows.count == 4)
    }

    @Test("a run with no latency and no failures still renders: no charts, the reason said")
    func empty() throws {
        let results = RunResults(scenarios: [
            ScenarioResult(file: "a.json", name: "waits", outcome: .passed, steps: [
                StepResult(index: 0, kind: "wait", outcome: .unchecked),
            ]),
        ])
        let html = HTMLReport.render(results)
        let document = try Self.document(html)
        #expect(Self.elements(document).filter { $0.name == "svg" }.isEmpty)
        #expect(html.contains("Every scenario passed."))
        #expect(html.contains("No step latencies in this run."))
    }
}
