import Foundation
import HILTestSupport
import Records
import Report
import Testing

/// Where the HTML report says its results came from, and where its timeline's ticks fall (issue 54, item 6).
@Suite("The HTML report: its results' place as the reader has it, and round ticks on the timeline")
struct ReportPlacesTests {
    @Test("results.json beside the report is named as such, never by where it was written (the vm guest's share)")
    func from() throws {
        #expect(ReportFiles.shown("/hil/share/results/results.json", from: "/hil/share/results") == "results.json")
        #expect(ReportFiles.shown("nightly/a/results.json", from: "/elsewhere") == "nightly/a/results.json")
        let folder = try TemporaryFolder()
        let file = try folder.write(ResultsFixtures.shard(index: 1, count: 1, host: "box", swipes: [100], taps: [8]), to: "results.json")
        try ReportFiles.write(results: try RunResults.load(contentsOf: file), to: folder.path)
        let html = try String(contentsOfFile: folder.path + "/report.html", encoding: .utf8)
        #expect(html.contains("<p class=\"file\">From results.json</p>"), "\(html.split(separator: "\n").filter { $0.contains("From") })")
        #expect(!html.contains("From \(folder.path)"))
    }

    @Test("the timeline's ticks are round times from the origin: 500, 1000, 1500, 2000 ms, not 15.2, 1205.6, 2396.0")
    func ticks() {
        #expect(TraceTimeline.ticks(from: 15.2, to: 2396.0) == [500, 1000, 1500, 2000])
        #expect(TraceTimeline.ticks(from: 0, to: 7.3) == [0, 2, 4, 6])
        #expect(TraceTimeline.ticks(from: 1.0, to: 4.15) == [1, 2, 3, 4])
        let svg = CaptureReportTests.timeline.svg()
        let labels = svg.split(separator: "\n").filter { $0.hasPrefix("<text") && $0.hasSuffix(" ms</text>") }
            .compactMap { $0.split(separator: ">")[1].split(separator: " ").first.flatMap { Double($0) } }
        #expect(labels == [20, 40, 60, 80], "marks from 1 to 90 ms: \(labels)")
    }
}
