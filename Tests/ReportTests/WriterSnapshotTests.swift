import Records
import Report
import Testing

/// Snapshot tests of every file format Report writes: results.json (`hil-results/1`), junit.xml, bench.json
/// (`hil-bench/1`) and soak.json (`hil-soak/1`), each against its golden file in Snapshots/ (see `Snapshot` for
/// `HIL_RECORD_SNAPSHOTS=1`).
@Suite("Report's writers against the golden files")
struct WriterSnapshotTests {
    @Test("results.json of one sharded run: every outcome, stages, phases, messages")
    func singleResults() throws {
        try Snapshot.check(WriterFixtures.single.jsonText(everyEnvironmentKey: true), named: "results-single.json")
    }

    @Test("junit.xml of one run: failures and errors with messages, escaped; control characters replaced")
    func singleJUnit() throws {
        try Snapshot.check(WriterFixtures.single.junitXML, named: "junit-single.xml")
    }

    @Test("results.json of a repeated run: repeat on every scenario, stability")
    func repeatedResults() throws {
        try Snapshot.check(WriterFixtures.repeated.jsonText(everyEnvironmentKey: true), named: "results-repeated.json")
    }

    @Test("junit.xml of a repeated run: one test case per scenario, flaky ones marked")
    func repeatedJUnit() throws {
        try Snapshot.check(WriterFixtures.repeated.junitXML, named: "junit-repeated.xml")
    }

    @Test("bench.json: both paths, stages, ladders, an unknown bluez and no sustained rate")
    func bench() throws {
        try Snapshot.check(WriterFixtures.bench.jsonText, named: "bench.json")
    }

    @Test("soak.json: every minute, unrounded percentiles, unknown memory and latency as null")
    func soak() throws {
        try Snapshot.check(WriterFixtures.soak.jsonText, named: "soak.json")
    }

    @Test("what the writer writes, the reader reads: the same records, and the same bytes written again",
          arguments: ["results-single.json", "results-repeated.json"])
    func roundTrip(name: String) throws {
        let golden = try Snapshot.golden(name)
        let read = try RunResults.parse(Array(golden.utf8), file: name)
        #expect(read.jsonText(everyEnvironmentKey: true) == golden)
        let written = name == "results-single.json" ? WriterFixtures.single : WriterFixtures.repeated
        #expect(read.scenarios.map(\.file) == written.scenarios.map(\.file))
        #expect(read.scenarios.map(\.outcome) == written.scenarios.map(\.outcome))
        #expect(read.scenarios.map(\.repetition) == written.scenarios.map(\.repetition))
        #expect(read.scenarios.map(\.statusNotifications) == written.scenarios.map(\.statusNotifications))
        #expect(read.scenarios.map { $0.phasesMs?.map(\.name) } == written.scenarios.map { $0.phasesMs?.map(\.name) })
        #expect(read.scenarios.flatMap(\.steps).map(\.message) == written.scenarios.flatMap(\.steps).map(\.message))
        // Every key the writer writes is one the reader knows.
        #expect(read.scenarios.allSatisfy { $0.additional.count == 0 })
        #expect(read.scenarios.flatMap(\.steps).allSatisfy { $0.additional.count == 0 })
        #expect(read.additional.count == 0)
        #expect(read.shard == written.shard)
        #expect(read.environments == written.environments)
        #expect(!read.latencyRecomputed && read.kinds == written.kinds)
        #expect(read.junitXML.count > 0)
    }

    @Test("a difference is reported at its line, expected beside actual")
    func readableDifference() {
        let text = Snapshot.difference("a\nb\nc\n", "a\nB\nc\n", name: "x.json")
        #expect(text.contains("x.json differs from its golden file at line 2"))
        #expect(text.contains("- expected: \"b\""))
        #expect(text.contains("+ actual:   \"B\""))
    }
}
