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
