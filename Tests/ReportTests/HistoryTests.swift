import Foundation
import FoundationXML
import HILTestSupport
import Records
import Report
import Testing

@Suite("A history of runs: folders, comparisons, the grid")
struct HistoryTests {
    typealias Night = HistoryFixtures.Night

    @Test("a folder of runs: time order whatever the names, the latest link passed over, broken nights skipped")
    func loading() throws {
        let folder = try TemporaryFolder()
        try HistoryFixtures.write([
            ("b", Night(startedAt: "2026-11-02T02:30:00Z")), ("a", Night(startedAt: "2026-11-03T02:30:00Z")),
            ("c", Night(startedAt: "2026-11-01T02:30:00Z")),
        ], in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/latest", withDestinationPath: folder.path + "/a")
        _ = try folder.write("{ \"passed\": ", to: "broken/results.json")
        try FileManager.default.createDirectory(atPath: folder.path + "/crashed", withIntermediateDirectories: true)
        let history = try RunHistory.load([folder.path])
        #expect(history.runs.map(\.name) == ["c", "b", "a"])
        #expect(history.skipped.map { URL(fileURLWithPath: $0.folder).lastPathComponent } == ["broken", "crashed"])
        #expect(history.skipped[1].reason.contains("no results.json"))
        // A run folder named directly, and the same run again through its parent: counted once.
        #expect(try RunHistory.load([folder.path + "/a", folder.path]).runs.count == 3)
        withExtendedLifetime(folder) {}
    }

    @Test("what cannot be a history is refused with the folder named: missing, empty, a broken run named directly")
    func refused() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/empty", withIntermediateDirectories: true)
        _ = try folder.write("not json", to: "bad/results.json")
        #expect(throws: ReportError.self) { try RunHistory.load([folder.path + "/missing"]) }
        do {
            _ = try RunHistory.load([folder.path + "/empty"])
            Issue.record("an empty folder loaded")
        } catch {
            #expect(error.code == .noRuns && error.description.contains("/empty: no results.json"))
        }
        #expect(throws: ReportError.self) { try RunHistory.load([folder.path + "/bad"]) }
        withExtendedLifetime(folder) {}
    }

    @Test("a +5 ms night after five quiet ones is flagged on its transport and kind only; quiet nights are not")
    func regression() throws {
        var nights = HistoryFixtures.quiet(5)
        nights.append(Night(startedAt: "2026-11-06T02:30:00Z", tapShift: 5, seed: 77))
        let analysis = HistoryAnalysis(RunHistory(runs: try nights.enumerated().map { try Self.run("n\($0.offset)", $0.element) }))
        let newest = try #require(analysis.newest)
        #expect(newest.reference == [0, 1, 2, 3, 4])
        #expect(newest.regressions.map(\.group.label) == ["ble tap"])
        #expect(newest.comparison?.comparisons == 3)
        #expect(analysis.runs.dropLast().allSatisfy { $0.regressions.isEmpty })
        let tap = try #require(analysis.series.first { $0.group.label == "ble tap" })
        #expect(tap.points.last??.verdict == .regressed)
        #expect(analysis.series.map(\.group.label) == ["ble swipe", "ble tap", "udp button"])
    }

    @Test("ten quiet nights: nothing flagged, and each compared with at most 7 earlier ones")
    func quiet() throws {
        let analysis = HistoryAnalysis(RunHistory(runs: try HistoryFixtures.quiet(10).enumerated().map { try Self.run("n\($0.offset)", $0.element) }))
        #expect(analysis.runs.allSatisfy { $0.regressions.isEmpty })
        #expect(analysis.runs.map(\.reference.count) == [0, 1, 2, 3, 4, 5, 6, 7, 7, 7])
        #expect(analysis.newest?.reference == [2, 3, 4, 5, 6, 7, 8])
    }

    @Test("a changed kernel is marked and starts a new reference; a condition an older file lacks is no change")
    func conditions() throws {
        var nights = HistoryFixtures.quiet(5)
        nights[1].radio = nil
        nights[3].kernel = "6.1.0-57-amd64"
        nights[3].tapShift = 5
        nights[4].kernel = "6.1.0-57-amd64"
        let analysis = HistoryAnalysis(RunHistory(runs: try nights.enumerated().map { try Self.run("n\($0.offset)", $0.element) }))
        #expect(analysis.runs.map { $0.changes.map(\.description) } == [[], [], [], ["kernel 6.1.0-56-amd64 → 6.1.0-57-amd64"], []])
        // The new kernel's first night is compared with nothing (its shift is marked, not flagged); the next with it.
        #expect(analysis.runs[3].comparison == nil && analysis.runs[3].reference.isEmpty)
        #expect(analysis.runs[4].reference == [3])
        #expect(analysis.runs[2].reference == [0, 1])
    }

    @Test("the grid: a row per scenario and transport, flaky when repeats disagree, failing rows first, blanks where absent")
    func grid() throws {
        var nights = HistoryFixtures.quiet(4)
        nights[1].tapOutcomes = ["passed", "failed"]
        nights[2].tapOutcomes = ["failed"]
        var runs = try nights.enumerated().map { try Self.run("n\($0.offset)", $0.element) }
        runs[3].results.scenarios.removeAll { $0.file == "Scenarios/buttons.json" }
        let grid = ScenarioGrid(runs.map(\.results))
        #expect(grid.rows.map(\.file) == ["Scenarios/taps.json", "Scenarios/swipes.json", "Scenarios/buttons.json"])
        #expect(grid.rows[0].cells == [.passed, .flaky, .failed, .passed])
        #expect(grid.rows[0].failures == 2 && grid.rows[0].unsteady)
        #expect(grid.rows[2].cells == [.passed, .passed, .passed, .absent])
    }

    @Test("--keep: the oldest found runs go with their folders; runs named directly and skipped folders stay")
    func prune() throws {
        let folder = try TemporaryFolder()
        try HistoryFixtures.write(HistoryFixtures.quiet(5).enumerated().map { ("night\($0.offset)", $0.element) }, in: folder)
        try FileManager.default.createDirectory(atPath: folder.path + "/crashed", withIntermediateDirectories: true)
        let elsewhere = try TemporaryFolder()
        try HistoryFixtures.write([("old", Night(startedAt: "2026-10-01T02:30:00Z"))], in: elsewhere)
        var history = try RunHistory.load([folder.path, elsewhere.path + "/old"])
        let removed = try history.prune(keeping: 3)
        #expect(removed.map { URL(fileURLWithPath: $0).lastPathComponent } == ["night0", "night1"])
        #expect(history.runs.map(\.name) == ["old", "night2", "night3", "night4"])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["crashed", "night2", "night3", "night4"])
        #expect(FileManager.default.fileExists(atPath: elsewhere.path + "/old/results.json"))
        withExtendedLifetime((folder, elsewhere)) {}
    }

    @Test("results.json records radio, build and commit; an older file without them still loads")
    func environmentFields() throws {
        let results = try RunResults.parse(Array(HistoryFixtures.results(Night(startedAt: "2026-11-01T02:30:00Z")).utf8), file: "n.json")
        #expect(results.environments.first?.radio == "btvirt" && results.environments.first?.build == "release")
        #expect(results.commit == "0123456789abcdef0123456789abcdef01234567")
        #expect(results.conditions.values["radio"] == "btvirt")
        let older = try ResultsFixtures.realisticResults()
        #expect(older.environments.first?.radio == nil && older.commit == nil)
        let written = try RunResults.parse(Array(results.jsonText.utf8), file: "again.json")
        #expect(written.environments == results.environments)
    }

    static func run(_ name: String, _ night: Night) throws -> RunHistory.Run {
        RunHistory.Run(folder: "/nights/" + name, results: try RunResults.parse(Array(HistoryFixtures.results(night).utf8), file: name))
    }
}
