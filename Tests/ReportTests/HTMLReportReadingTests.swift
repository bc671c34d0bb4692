import Foundation
import FoundationXML
import HILTestSupport
import Records
import Report
import Testing

/// What a reader of report.html meets: links that lead somewhere, words instead of JSON values, charts on one axis,
/// and capture links that still hold when the folder is uploaded (`hil lab run`'s merged folder).
@Suite("The HTML report as a reader meets it")
struct HTMLReportReadingTests {
    static func step(_ kind: String, _ index: Int, latency: Double?) -> StepResult {
        StepResult(index: index, kind: kind, outcome: latency == nil ? .unchecked : .passed, commands: 1, latencyMs: latency)
    }

    static func scenario(_ name: String, transport: String?, latencies: [Double], kind: String = "tap") -> ScenarioResult {
        ScenarioResult(file: "Scenarios/\(name).json", name: name, outcome: .passed,
                       steps: latencies.enumerated().map { step(kind, $0.offset, latency: $0.element) },
                       durationMs: 1200, transport: transport)
    }

    /// Runs whose sections differ: no transport, one with latencies, one without, two.
    static let runs: [(name: String, results: RunResults)] = [
        ("no transport named", RunResults(scenarios: [scenario("a", transport: nil, latencies: [3])])),
        ("one transport", RunResults(scenarios: [scenario("a", transport: "ble", latencies: [3, 4])])),
        ("one transport, no latencies", RunResults(scenarios: [scenario("a", transport: "ble", latencies: [])])),
        ("two transports", RunResults(scenarios: [
            scenario("a", transport: "ble", latencies: [3]), scenario("b", transport: "tcp", latencies: [5]),
        ])),
    ]

    static func document(_ html: String) throws -> XMLDocument { try HTMLReportTests.document(html) }

    static func elements(_ node: XMLNode) -> [XMLElement] { HTMLReportTests.elements(node) }

    @Test("every in-page link has its target, and the navigation names only the sections the report has",
          arguments: 0..<runs.count)
    func anchors(_ index: Int) throws {
        let (name, results) = Self.runs[index]
        let html = HTMLReport.render(results)
        let all = Self.elements(try Self.document(html))
        let ids = Set(all.compactMap { $0.attribute(forName: "id")?.stringValue })
        let targets = all.compactMap { $0.attribute(forName: "href")?.stringValue }.filter { $0.hasPrefix("#") }
        #expect(!targets.isEmpty)
        for target in targets {
            #expect(ids.contains(String(target.dropFirst())), "\(name): \(target) leads nowhere")
        }
        let sections = all.filter { $0.name == "section" }.compactMap { $0.attribute(forName: "id")?.stringValue }
        let nav = try #require(all.first { $0.name == "nav" })
        #expect(Self.elements(nav).compactMap { $0.attribute(forName: "href")?.stringValue } == sections.map { "#" + $0 },
                "\(name)")
    }

    @Test("a scenario that does not apply reads \"not applicable\", with a dash for its duration, steps and p95")
    func notApplicable() throws {
        var skipped = ScenarioResult(file: "Scenarios/gatt.json", name: "gatt only", outcome: .notApplicable,
                                     message: "not applicable on tcp: ble only", durationMs: 0, transport: "tcp")
        skipped.steps = [Self.step("tap", 0, latency: nil)]
        let html = HTMLReport.render(RunResults(scenarios: [Self.scenario("a", transport: "ble", latencies: [3]), skipped]))
        let row = try #require(Self.elements(try Self.document(html)).first {
            $0.name == "tr" && $0.attribute(forName: "class")?.stringValue == "notApplicable"
        })
        let cells = Self.elements(row).filter { $0.name == "td" }.compactMap(\.stringValue)
        #expect(cells.count == 7)
        #expect(cells[1] == "not applicable")
        #expect(Array(cells[4...]) == ["-", "-", "-"], "duration, checked steps, p95: \(cells)")
        // The JSON value stays a class name only, never text a reader sees.
        #expect(!html.contains(">notApplicable<"))
    }

    @Test("the transport table's claim column is the product's claim, in the HTML and the Markdown")
    func claimColumn() {
        let results = Self.runs[3].results
        let html = HTMLReport.render(results)
        let markdown = MarkdownSummary.render(results)
        #expect(html.contains("<th>the product&#39;s claim</th>"))
        #expect(markdown.contains("| link p50 | the product's claim |"))
        #expect(!html.contains("seed") && !markdown.contains("seed"))
    }

    /// The labels under a chart's x axis, left to right.
    static func axisLabels(_ svg: XMLElement) -> [String] {
        let texts = elements(svg).filter { $0.name == "text" && $0.attribute(forName: "text-anchor")?.stringValue == "middle" }
        return texts.filter { $0.attribute(forName: "transform") == nil && $0.stringValue?.contains("latency") == false }
            .compactMap(\.stringValue)
    }

    @Test("every kind's CDF and histogram share one x range, so kinds compare by eye")
    func sharedAxis() throws {
        let results = RunResults(scenarios: [
            Self.scenario("taps", transport: "ble", latencies: [1.5, 2, 3], kind: "tap"),
            Self.scenario("swipes", transport: "ble", latencies: [180, 250], kind: "swipe"),
        ])
        let svgs = Self.elements(try Self.document(HTMLReport.render(results))).filter {
            ["chart cdf", "chart histogram"].contains($0.attribute(forName: "class")?.stringValue ?? "")
        }
        #expect(svgs.count == 4)
        for svg in svgs {
            #expect(Self.axisLabels(svg) == ["1", "10", "100", "1000"], "\(svg.attribute(forName: "aria-label")?.stringValue ?? "")")
        }
    }

    @Test("hil lab run's merged folder: after it moved, every link of results.json, junit.xml, report.html and summary.md leads to its file")
    func mergedFolderMoved() throws {
        let root = NSTemporaryDirectory() + "hil-lab-links-\(UUID().uuidString)"
        let moved = root + "-moved"
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: moved)
        }
        // As lab fetches them: each box's folder inside the output, its captures made absolute for the merge.
        var parts: [RunResults] = []
        for box in ["box 1", "box 2"] {
            let folder = "\(root)/\(box)/001-drag"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var failed = CaptureReportTests.failed(captures: [])
            for (kind, name) in [("timeline", "timeline.json"), ("hci", "hci.btsnoop"), ("evdev", "evdev.log")] {
                try "capture\n".write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8)
                failed.captures.append(.init(kind: kind, path: "001-drag/\(name)"))
            }
            parts.append(RunResults(scenarios: [failed]).capturesAbsolute(from: "\(root)/\(box)"))
        }
        let written = try ReportFiles.writeRun(RunResults(scenarios: parts.flatMap(\.scenarios)), to: root)
        #expect(written.map { ($0 as NSString).lastPathComponent } == ["results.json", "junit.xml", "report.html", "summary.md"])

        try FileManager.default.moveItem(atPath: root, toPath: moved)
        var followed = 0
        for name in ["results.json", "junit.xml", "report.html", "summary.md"] {
            let links = try ReportLinks.links(in: "\(moved)/\(name)")
            let broken = links.filter { $0.problem != nil }
            #expect(broken.isEmpty, "\(broken.map(\.description).joined(separator: "\n"))")
            followed += links.filter { !$0.target.hasPrefix("#") }.count
        }
        #expect(followed == 18, "six captures in each of results.json, junit.xml and report.html")
    }
}
