import Foundation
import HILTestSupport
import Records
import Report
import Testing

/// The report opened in a real browser: Debian's Chromium, headless, from a file:// URL as a person opening the
/// CI artifact would. Fails (never skips) when Chromium is missing.
@Suite("The HTML report in headless Chromium", .serialized)
struct ChromiumRenderingTests {
    static let missing: Comment = "chromium not found: run bash Rigs/setup.sh"

    /// The realistic run merged with a shard of another box's, against a baseline: every section has content.
    static func writeReport(in folder: TemporaryFolder) throws -> (file: String, results: RunResults) {
        let results = try ResultsFixtures.realisticResults()
        let baseline = try RunResults.parse(
            Array(ResultsFixtures.shard(index: 1, count: 1, host: "nightly-0",
                                        swipes: ResultsFixtures.samples(12, in: 100...150, seed: 5),
                                        taps: ResultsFixtures.samples(12, in: 5...9, seed: 6)).utf8),
            file: "baseline.json")
        let written = try ReportFiles.write(results: results, baseline: baseline, to: folder.path)
        return (written[0], results)
    }

    @Test("the DOM Chromium builds keeps the report's headings, tables and SVG charts")
    func dumpDOM() async throws {
        let chromium = try #require(Chromium.find(), Self.missing)
        let folder = try TemporaryFolder()
        let (file, results) = try Self.writeReport(in: folder)
        let run = try await chromium.run(["--dump-dom"], url: URL(fileURLWithPath: file), in: folder.path)
        #expect(!run.timedOut, "chromium --dump-dom did not finish in 60 s")
        #expect(run.status == 0, "chromium exited with \(run.status): \(run.standardError.suffix(2000))")
        let dom = String(decoding: run.standardOutput, as: UTF8.self)
        for heading in ["<h1>hil run: 2 passed, 2 failed (1 error)</h1>", "<h2>Failures (2)</h2>", "<h2>Latency by gesture kind</h2>",
                        "<h2>Per-stage breakdown</h2>", "<h2>Compared with baseline</h2>", "<h2>Environment</h2>",
                        "<h2>Scenarios (4)</h2>"]
        {
            #expect(dom.contains(heading), "missing from Chromium's DOM: \(heading)")
        }
        let svgs = dom.components(separatedBy: "<svg ").count - 1
        #expect(svgs == 2 * results.kinds.count + 1)
        #expect(dom.components(separatedBy: "</svg>").count - 1 == svgs)
        #expect(dom.components(separatedBy: "<path class=\"cdf-line\"").count - 1 == results.kinds.count)
        #expect(!dom.contains("<script"))
        withExtendedLifetime(folder) {}
    }

    @Test("a 1200 × 2400 screenshot is a PNG of that size, far from blank")
    func screenshot() async throws {
        let chromium = try #require(Chromium.find(), Self.missing)
        let folder = try TemporaryFolder()
        let (file, _) = try Self.writeReport(in: folder)
        let blankPage = try folder.write("<!DOCTYPE html><html><head><title>blank</title></head><body></body></html>", to: "blank.html")

        func shoot(_ page: String, to name: String) async throws -> Data {
            let png = folder.path + "/" + name
            let run = try await chromium.run(
                ["--screenshot=\(png)", "--window-size=1200,2400", "--hide-scrollbars"], url: URL(fileURLWithPath: page),
                in: folder.path)
            #expect(!run.timedOut, "chromium --screenshot did not finish in 60 s")
            #expect(run.status == 0, "chromium exited with \(run.status): \(run.standardError.suffix(2000))")
            return try Data(contentsOf: URL(fileURLWithPath: png))
        }
        let report = try await shoot(file, to: "report.png")
        let blank = try await shoot(blankPage, to: "blank.png")

        let size = try #require(Self.pngSize(report), "not a PNG: \(report.prefix(16).map { String($0, radix: 16) })")
        #expect(size.width == 1200 && size.height == 2400)
        // A blank page of that size compresses to about 13 KB; the report's text and charts to far more.
        #expect(report.count > 40_000)
        #expect(report.count > 3 * blank.count, "report \(report.count) bytes, blank page \(blank.count) bytes")
        withExtendedLifetime(folder) {}
    }

    @Test("the history page: Chromium keeps its sections and one trend chart per group; a screenshot far from blank")
    func historyPage() async throws {
        let chromium = try #require(Chromium.find(), Self.missing)
        let folder = try TemporaryFolder()
        let (page, _, analysis) = try HistoryPageTests.write(in: folder)
        let dom = try await chromium.run(["--dump-dom"], url: URL(fileURLWithPath: page), in: folder.path)
        #expect(dom.status == 0 && !dom.timedOut, "chromium exited with \(dom.status): \(dom.standardError.suffix(2000))")
        let text = String(decoding: dom.standardOutput, as: UTF8.self)
        for heading in ["<h1>hil history: 5 runs</h1>", "<h2>Runs</h2>", "<h2>Latency by transport and gesture kind</h2>",
                        "<h2>Scenarios run by run</h2>", "<h2>Conditions</h2>"]
        {
            #expect(text.contains(heading), "missing from Chromium's DOM: \(heading)")
        }
        #expect(text.components(separatedBy: "<svg class=\"chart trend\"").count - 1 == analysis.series.count)
        let png = folder.path + "/history.png"
        let shot = try await chromium.run(["--screenshot=\(png)", "--window-size=1200,2400", "--hide-scrollbars"],
                                    url: URL(fileURLWithPath: page), in: folder.path)
        #expect(shot.status == 0 && !shot.timedOut, "chromium exited with \(shot.status)")
        let data = try Data(contentsOf: URL(fileURLWithPath: png))
        let size = try #require(Self.pngSize(data))
        #expect(size.width == 1200 && size.height == 2400)
        // A blank page of that size is about 13 KB; the tables and charts make far more.
        #expect(data.count > 40_000)
        withExtendedLifetime(folder) {}
    }

    /// Width and height from a PNG's IHDR chunk; nil when the data is not a PNG.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              bytes[12..<16] == [0x49, 0x48, 0x44, 0x52]
        else { return nil }
        func big(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (big(16), big(20))
    }
}
