import Foundation
import FoundationXML
import HILTestSupport
import Records
import Report
import Testing

@Suite("The history page and its Markdown summary")
struct HistoryPageTests {
    typealias Night = HistoryFixtures.Night

    /// Five nights in a folder, each with a report.html; the fourth changed the kernel, the fifth is 5 ms slower on
    /// ble taps and failed one repeat. The page goes into the newest night's folder, as nightly.sh writes it.
    static func write(in folder: TemporaryFolder) throws -> (page: String, markdown: String, analysis: HistoryAnalysis) {
        var nights = HistoryFixtures.quiet(5)
        nights[3].kernel = "6.1.0-57-amd64"
        nights[4].kernel = "6.1.0-57-amd64"
        nights[4].tapShift = 5
        nights[4].tapOutcomes = ["passed", "failed"]
        nights[4].commit = "fedcba9876543210fedcba9876543210fedcba98+dirty"
        let named = nights.enumerated().map { (String(format: "2026-11-%02dT0230", $0.offset + 1), $0.element) }
        try HistoryFixtures.write(named, in: folder)
        for (name, _) in named { _ = try folder.write("<!DOCTYPE html><html><body>report</body></html>", to: "\(name)/report.html") }
        var history = try RunHistory.load([folder.path])
        history.runs[0].results.scenarios[0].name = "<script>alert(\"x\")</script> & 'co'"
        let analysis = HistoryAnalysis(history)
        let page = folder.path + "/2026-11-05T0230/history.html"
        let markdown = try ReportFiles.writeHistory(analysis, html: page, markdown: folder.path + "/2026-11-05T0230/history.md")
        return (page, markdown, analysis)
    }

    @Test("well-formed, self-contained: no scripts, no network references, links only in-page or to the runs' reports")
    func selfContained() throws {
        let folder = try TemporaryFolder()
        let (page, _, _) = try Self.write(in: folder)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let document = try HTMLReportTests.document(html)
        #expect(!html.contains("http://") && !html.contains("https://") && !html.lowercased().contains("url("))
        #expect(!html.contains("<script>alert"))
        var reports = 0
        for element in HTMLReportTests.elements(document) {
            #expect(!["script", "link", "img", "iframe"].contains(element.name ?? ""))
            guard let href = element.attribute(forName: "href")?.stringValue, !href.hasPrefix("#") else { continue }
            // Relative to the page's folder, and the file is there.
            #expect(href == "report.html" || (href.hasPrefix("../") && href.hasSuffix("/report.html")), "\(href)")
            let target = URL(fileURLWithPath: page).deletingLastPathComponent().appendingPathComponent(href.removingPercentEncoding ?? href)
            #expect(FileManager.default.fileExists(atPath: target.standardizedFileURL.path), "\(href)")
            reports += 1
        }
        #expect(reports == 5)
        withExtendedLifetime(folder) {}
    }

    @Test("the verdict, the runs with commits and changes, a trend chart per group, the grid and the conditions")
    func content() throws {
        let folder = try TemporaryFolder()
        let (page, _, analysis) = try Self.write(in: folder)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<h1>hil history: 5 runs</h1>"))
        #expect(html.contains("<header class=\"fail\">"))
        #expect(html.contains("regressed against its 1 earlier run: ble tap +"))
        for id in ["runs", "latency", "scenarios", "conditions"] { #expect(html.contains("<section id=\"\(id)\">")) }
        #expect(html.contains("<td class=\"file nowrap\">fedcba987654+dirty</td>"))
        #expect(html.contains("<td class=\"file nowrap\">0123456789ab</td>"))
        #expect(html.contains("kernel 6.1.0-56-amd64 → 6.1.0-57-amd64"))
        #expect(html.components(separatedBy: "<svg class=\"chart trend\"").count - 1 == analysis.series.count)
        #expect(html.contains("<circle class=\"flag regressed\""))
        #expect(html.components(separatedBy: "class=\"change\"").count - 1 == analysis.series.count)
        #expect(html.contains("<td class=\"cell flaky\""))
        #expect(html.contains("<td class=\"changed\">6.1.0-57-amd64</td>"))
        #expect(html.contains("95 % interval"))
        withExtendedLifetime(folder) {}
    }

    @Test("the Markdown summary: the newest night's verdict first, its latency with intervals, the unsteady scenarios")
    func markdown() throws {
        let folder = try TemporaryFolder()
        let (_, markdown, _) = try Self.write(in: folder)
        let lines = markdown.components(separatedBy: "\n")
        #expect(lines[0].hasPrefix("❌ **hil history: 5 runs** Newest run 2026-11-05T0230: 3 passed, 1 failed; regressed against its 1 earlier run: ble tap +"))
        #expect(lines.contains("### Newest run's latency (ms; 95 % intervals)"))
        #expect(lines.contains { $0.hasPrefix("| ble tap | 80 | ") && $0.hasSuffix("| regressed |") })
        #expect(lines.contains { $0.hasPrefix("| udp button | 30 | ") && $0.hasSuffix("| unchanged |") })
        #expect(lines.contains { $0.hasPrefix("| taps click | ble | 1 of 5 |") && $0.hasSuffix("| ⚠️ |") })
        #expect(lines.contains("| 4 | 2026-11-04T0230 | 0123456789ab | 3 passed, 0 failed | kernel 6.1.0-56-amd64 → 6.1.0-57-amd64 | not compared |"))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/2026-11-05T0230/history.md"))
        withExtendedLifetime(folder) {}
    }
}
