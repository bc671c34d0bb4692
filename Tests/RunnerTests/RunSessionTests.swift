import RunContext
import Foundation
import Records
import RigControl
import Runner
import Synchronization
import Testing

/// The lines a session printed.
final class Lines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// The run session's policy without a rig: its exit status, what it writes, and what it says.
@Suite("hil run's session: exit status, results written, lines printed")
struct RunSessionTests {
    @Test("the exit status: an interrupt outranks a broken rig, which outranks the verdicts")
    func exitPolicy() {
        #expect(RunExit(interrupted: false, rigBroken: false, failures: 0) == .passed)
        #expect(RunExit(interrupted: false, rigBroken: false, failures: 3) == .failed)
        #expect(RunExit(interrupted: false, rigBroken: true, failures: 0) == .rigBroken)
        #expect(RunExit(interrupted: true, rigBroken: true, failures: 2) == .interrupted)
        #expect([RunExit.passed, .failed, .rigBroken, .interrupted].map(\.status.rawValue) == [0, 1, 125, 130])
    }

    /// A session over scenarios that apply to no transport asked for: nothing needs a rig.
    static func session(_ folder: String, stop: RunStop, lines: Lines, details: Lines? = nil) throws -> RunSession {
        let scenario = try RunPlanTests.scenario("ble only", #"{"transports": ["ble"]}"#)
        let rig = RunningRig(name: "none", lanes: [.init(peripheral: "hci0", central: "hci1")], uinputName: "test")
        let context = RunContext(rig: rig, hil: "/bin/false", writePath: nil, workDirectory: folder)
        let writer = RunResultsWriter(
            environment: RunEnvironment(rig: "none"), startedAt: Date(), start: .now, shard: nil, folder: folder)
        let settings = RunSession.Settings(
            plan: RunPlan([scenario], repeats: 1, choice: .only(.tcp)), repeats: 1, lanes: [context], work: folder,
            baseline: nil, writer: writer)
        var detail: (@Sendable (String) -> Void)?
        if let details { detail = { line in details.append(line) } }
        let console = RunSession.Console(line: { line in lines.append(line) }, details: detail,
                                         problem: { line in lines.append("E: " + line) })
        return RunSession(settings, stop: stop, console: console)
    }

    @Test("a run of not-applicable scenarios passes, writes results.json, junit.xml and the reports, and ends with the totals")
    func notApplicableRun() async throws {
        let folder = NSTemporaryDirectory() + "run-session-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = Lines()
        let exit = await (try Self.session(folder, stop: RunStop(), lines: lines)).run()
        #expect(exit == .passed)
        let printed = lines.all
        #expect(printed.first?.hasPrefix("[1/1] NOT APPLICABLE ble only: not applicable on tcp") == true, "\(printed)")
        #expect(printed.contains { $0.hasPrefix("0 passed, 0 failed, 1 not applicable in ") }, "\(printed)")
        for file in ["results.json", "junit.xml", "report.html", "summary.md"] {
            #expect(FileManager.default.fileExists(atPath: folder + "/" + file), "\(file)")
        }
        let results = try RunResults.load(contentsOf: folder + "/results.json")
        #expect(results.scenarios.map(\.outcome) == [.notApplicable])
    }

    @Test("the details (the tables) go apart from the lines, so hil run --quiet can leave them out")
    func details() async throws {
        let folder = NSTemporaryDirectory() + "run-session-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (lines, details) = (Lines(), Lines())
        #expect(await (try Self.session(folder, stop: RunStop(), lines: lines, details: details)).run() == .passed)
        #expect(lines.all.count == 3, "\(lines.all)")
        #expect(lines.all.first?.hasPrefix("[1/1] NOT APPLICABLE ") == true)
        #expect(lines.all.last?.hasPrefix("results: ") == true)
        #expect(details.all.count == 1 && details.all[0].contains("outcome       p50 ms"), "\(details.all)")
    }

    @Test("an interrupt before the run: exit 130, the results so far kept, and how many runs were not done")
    func interrupted() async throws {
        let folder = NSTemporaryDirectory() + "run-session-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = Lines()
        let session = try Self.session(folder, stop: RunStop(), lines: lines)
        session.interrupt()
        #expect(await session.run() == .interrupted)
        #expect(lines.all.contains("interrupted: 0 scenario run(s) not done"))
        #expect(FileManager.default.fileExists(atPath: folder + "/results.json"))
    }
}
