import Foundation
import Scenario
import StrictJSON
import Testing

@Suite("Requirement catalog, coverage, shards")
struct CatalogAndShardTests {
    static let catalogPath = packageRoot.appendingPathComponent("Scenarios/requirements.json").path

    @Test("the shipped catalog loads; every scenario of both suites names only ids from it; the listing shows both suites")
    func shippedCoverage() throws {
        let catalog = try RequirementCatalog.load(contentsOf: Self.catalogPath)
        #expect(catalog.requirements.count >= 60)
        let quick = try scenarioFiles(in: quickSuite).map { try Scenario.load(contentsOf: $0) }
        let nightly = try scenarioFiles(in: nightlySuite).map { try Scenario.load(contentsOf: $0) }
        let scenarios = quick + nightly
        for scenario in scenarios { #expect(catalog.unknownIDs(in: scenario) == [], "\(scenario.file)") }
        let listing = CoverageListing.text(scenarios: scenarios, catalog: catalog, all: scenarios, folders: [quickSuite, nightlySuite])
        #expect(!listing.contains("not covered by any scenario"))
        #expect(listing.contains("\(scenarios.count) scenario(s) in 2 folders: \(quickSuite) \(quick.count), \(nightlySuite) \(nightly.count)"))
        #expect(listing.contains("\n\(quickSuite) (\(quick.count)):\n") && listing.contains("\n\(nightlySuite) (\(nightly.count)):\n"))
        // Which suite covers what, and what only one of them does.
        func covered(_ suite: [Scenario]) -> Set<String> { Set(suite.flatMap(\.script.requirements)) }
        let observable = catalog.requirements.filter { $0.notObservable == nil }.map(\.id)
        let nightlyOnly = observable.filter { covered(nightly).contains($0) && !covered(quick).contains($0) }
        if !nightlyOnly.isEmpty { #expect(listing.contains("covered only by \(nightlySuite): \(nightlyOnly.joined(separator: ", "))\n")) }
        #expect(listing.contains("requirements covered per folder: \(quickSuite) \(observable.filter(covered(quick).contains).count), "
            + "\(nightlySuite) \(observable.filter(covered(nightly).contains).count)"))
        // The last line counts requirements, not scenarios.
        #expect(listing.contains("requirements covered per transport (by the scenarios that apply to it), of \(observable.count): ble "))
        // Without the idle scenarios, their requirements are reported as uncovered; one folder has no headings.
        let withoutIdle = scenarios.filter { !$0.script.requirements.contains { $0.hasPrefix("R11.") } }
        let single = CoverageListing.text(scenarios: withoutIdle, catalog: catalog, all: scenarios, folders: [quickSuite])
        #expect(single.contains("not covered by any scenario: R11.1, R11.2, R11.3, R11.4"))
        #expect(single.hasPrefix("\(withoutIdle.count) scenario(s):\n") && !single.contains("covered only by"))
        #expect(listing.contains("R8.2") && listing.contains("not observable on a rig"))
    }

    /// The quick suite may leave a requirement to the nightly suite (a minute idle, the real backoff), but a
    /// requirement neither suite covers is a gap.
    @Test("every observable requirement is covered by the quick suite, the nightly suite, or both")
    func bothSuitesCoverEveryRequirement() throws {
        let catalog = try RequirementCatalog.load(contentsOf: Self.catalogPath)
        let quick = try scenarioFiles(in: quickSuite).map { try Scenario.load(contentsOf: $0) }
        let nightly = try scenarioFiles(in: nightlySuite).map { try Scenario.load(contentsOf: $0) }
        #expect(quick.count >= 15 && nightly.count >= 15, "\(quick.count) quick, \(nightly.count) nightly")
        let neither = catalog.coverage(quick + nightly).filter { $0.requirement.notObservable == nil && $0.scenarios.isEmpty }.map(\.requirement.id)
        #expect(neither == [], "covered by neither Scenarios/ nor Scenarios-nightly/: \(neither.joined(separator: ", "))")
    }

    /// What keeps `hil run Scenarios/` within its 3 minutes with the vm guest's boot (docs/measurements.md): each
    /// scenario costs 1.2-4 s around its steps on that rig, so the quick suite keeps to a few dozen, and waits measured
    /// in seconds (idle timers, backoff, lockouts) belong to the nightly suite. The one long wait is the partition that
    /// only the computer's own 5 s stall deadline can end in time (network/a-stalled-session-lets-go.json: the phone
    /// cannot be back before it ends, so a computer that waits for the phone is caught).
    @Test("the quick suite stays quick: at most 30 scenarios, none waiting more than 12 s, 30 s of waits in all")
    func quickSuiteStaysQuick() throws {
        let files = scenarioFiles(in: quickSuite)
        #expect(files.count <= 30, "\(files.count) scenarios in Scenarios/: move some to Scenarios-nightly/ (docs/scenarios.md, \"Two suites\")")
        var total = 0.0
        for file in files {
            let waited = Self.timedWaitsMs(try JSONParser().parse(String(contentsOfFile: file, encoding: .utf8)))
            #expect(waited <= 12000, "\(file) waits \(waited) ms: its place is Scenarios-nightly/, or shorten its timers (run, settings)")
            total += waited
        }
        #expect(total <= 30000, "the quick suite waits \(total) ms in all")
    }

    /// The milliseconds a scenario spends in `wait` steps and link outages (`linkDrop`, `partition`).
    private static func timedWaitsMs(_ value: JSONValue) -> Double {
        func number(_ value: JSONValue?) -> Double {
            if case .number(let number) = value { return number }
            return 0
        }
        switch value {
        case .object(let object):
            return object.entries.reduce(0) { sum, entry in
                switch (entry.key, entry.value) {
                case ("wait", .object(let fields)): return sum + number(fields["ms"])
                case ("linkDrop", .object(let fields)), ("partition", .object(let fields)): return sum + number(fields["forMs"])
                case ("expect", _): return sum
                default: return sum + timedWaitsMs(entry.value)
                }
            }
        case .array(let items): return items.reduce(0) { $0 + timedWaitsMs($1) }
        default: return 0
        }
    }

    @Test("the catalog is found from a folder or a file below it, and from the nightly suite (its requirements.json links to it)")
    func finds() {
        #expect(RequirementCatalog.find(for: [packageRoot.appendingPathComponent("Scenarios").path]) == Self.catalogPath)
        #expect(RequirementCatalog.find(for: [packageRoot.appendingPathComponent("Scenarios/link/reconnect-after-drop.json").path]) == Self.catalogPath)
        let nightly = RequirementCatalog.find(for: [nightlySuite]).map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        #expect(nightly == URL(fileURLWithPath: Self.catalogPath).resolvingSymlinksInPath().path)
        #expect(RequirementCatalog.find(for: ["/"]) == nil)
    }

    @Test("--list with several folders: each scenario under its folder, the folder beside each covering scenario, what one folder alone covers; the last line counts requirements")
    func listingByFolder() throws {
        let catalog = RequirementCatalog(file: "Q/requirements.json", requirements: [
            .init(id: "R1.1", text: "a"), .init(id: "R2.1", text: "b"), .init(id: "R3.1", text: "c"),
            .init(id: "R8.2", text: "d", notObservable: "storage"),
        ])
        func scenario(_ file: String, _ requirements: [String], transports: String = "") throws -> Scenario {
            try Scenario.parse(try JSONParser().parse(#"{"name": "\#(file)", "requirements": \#(requirements)\#(transports), "steps": [{"tap": {}}]}"#), file: file)
        }
        let scenarios = [
            try scenario("Q/x/quick.json", ["R1.1"]),
            try scenario("N/y/nightly.json", ["R1.1", "R2.1"], transports: #", "run": {"transports": ["tcp"]}"#),
        ]
        let text = CoverageListing.text(scenarios: scenarios, catalog: catalog, all: scenarios, folders: ["Q/", "N"])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.prefix(5) == [
            "2 scenario(s) in 2 folders: Q/ 1, N 1",
            "Q/ (1):",
            "  Q/x/quick.json — Q/x/quick.json [R1.1] (ble, hid, tcp, udp)",
            "N (1):",
            "  N/y/nightly.json — N/y/nightly.json [R1.1, R2.1] (tcp)",
        ])
        #expect(text.contains("  R1.1      ble 1 · hid 1 · tcp 2 · udp 1 — Q/: quick.json; N: nightly.json\n"))
        #expect(text.contains("  R2.1      ble 0 · hid 0 · tcp 1 · udp 0 — N: nightly.json\n"))
        #expect(text.contains("  R3.1      NO SCENARIO — c\n"))
        #expect(lines.suffix(5) == [
            "2 of 3 observable requirements covered; 1 not observable on a rig",
            "requirements covered per folder: Q/ 1, N 2",
            "covered only by N: R2.1",
            "requirements covered per transport (by the scenarios that apply to it), of 3: ble 1, hid 1, tcp 2, udp 1",
            "not covered by any scenario: R3.1",
        ], "\(text)")
        // One folder (or scenarios from one folder only): no headings, as before.
        let single = CoverageListing.text(scenarios: [scenarios[0]], catalog: catalog, all: scenarios, folders: ["Q/", "N"])
        #expect(single.hasPrefix("1 scenario(s):\n  Q/x/quick.json"))
        #expect(!single.contains("per folder") && single.contains("  R1.1      ble 1 · hid 1 · tcp 1 · udp 1 — quick.json\n"))
    }

    @Test("a broken catalog and unknown ids are reported with the file and JSON path")
    func problems() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("requirements.json").path
        try #"{"requirements": [{"id": "R1.1", "text": "x"}, {"id": "R1.1", "text": "y"}, {"id": "R2", "text": "z", "observable": false}, {"text": 3}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        do {
            _ = try RequirementCatalog.load(contentsOf: file)
            Issue.record("a broken catalog loaded")
        } catch {
            #expect(error.problems == [
                "requirements[1].id: R1.1 is listed twice",
                "requirements[2]: a requirement the rig cannot observe says why (\"why\")",
                "requirements[3]: missing required key \"id\"",
            ])
        }
        let catalog = RequirementCatalog(file: "Scenarios/requirements.json", requirements: [.init(id: "R1.1", text: "x")])
        let scenario = try Scenario.parse(try JSONParser().parse(#"{"name": "n", "requirements": ["R1.1", "R13.1"], "steps": [{"tap": {}}]}"#), file: "s.json")
        #expect(catalog.unknownIDs(in: scenario).map(\.text) == ["requirements[1]: R13.1 is not in Scenarios/requirements.json (did you mean R1.1?); add it there or fix the id"])
    }

    @Test("shards: i/n parsed strictly; every scenario in exactly one slice, and its slice does not depend on the others")
    func shards() {
        #expect(Shard("2/3")?.description == "2/3")
        for bad in ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", ""] { #expect(Shard(bad) == nil, "\(bad)") }
        let files = shippedScenarios()
        for count in 1...5 {
            let slices = (1...count).map { index in files.filter { Shard("\(index)/\(count)")!.contains($0) } }
            #expect(slices.map(\.count).reduce(0, +) == files.count)
            #expect(Set(slices.flatMap { $0 }).count == files.count)
        }
        // Balanced enough to be worth splitting: with 2 slices neither is empty.
        #expect(files.filter { Shard("1/2")!.contains($0) }.count > 5)
        #expect(files.filter { Shard("2/2")!.contains($0) }.count > 5)
    }
}
