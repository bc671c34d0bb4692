import Foundation
import HILTestSupport
import Testing

/// What `hil report` refuses, and the words it refuses it with (issue 54, item 6): the same file twice and two whole
/// runs (not shards of one run), each naming both files; an output under a file; an empty file; another command's file.
@Suite("hil report: what it refuses, naming the files and the real cause")
struct ReportRefusalTests {
    static let snapshots = packageRoot.appendingPathComponent("Tests/ReportTests/Snapshots")
    /// A whole run: results.json of a run given no --shard.
    static let wholeRun = snapshots.appendingPathComponent("results-repeated.json").path

    func report(_ arguments: [String], in folder: URL) async throws -> (status: Int32, output: String, errors: String) {
        try await runSeparating(try RigGuest.hilBinary(), ["report"] + arguments, in: folder)
    }

    func folderWithRuns(_ names: [String]) throws -> URL {
        let folder = try scratchFolder("report-refusals")
        for name in names {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Self.wholeRun, toPath: folder.appendingPathComponent("\(name)/results.json").path)
        }
        return folder
    }

    @Test("the same results.json twice, however written: refused, naming both; counted twice it was")
    func sameFileTwice() async throws {
        let folder = try folderWithRuns(["a"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await report(["a/results.json", "./a/results.json"], in: folder)
        #expect(run.status == 64, "\(run.errors)")
        #expect(run.errors.contains("a/results.json is given 2 times (as a/results.json and ./a/results.json)"), "\(run.errors)")
        #expect(run.output.isEmpty, "nothing reported: \(run.output)")
    }

    @Test("two whole runs: refused, naming both (they are not shards of one run)")
    func twoWholeRuns() async throws {
        let folder = try folderWithRuns(["a", "b"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await report(["a/results.json", "b"], in: folder)
        #expect(run.status == 64, "\(run.errors)")
        #expect(run.errors.contains("a/results.json and b/results.json are whole runs, not shards of one run"), "\(run.errors)")
        #expect(run.errors.contains("--baseline"), "\(run.errors)")
    }

    @Test("--html under a file: the file is named as the cause, before any work")
    func outputUnderAFile() async throws {
        let folder = try folderWithRuns(["a"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("not a folder", to: folder.appendingPathComponent("x"))
        let run = try await report(["a", "--html", "x/y.html"], in: folder)
        #expect(run.status == 64, "\(run.errors)")
        #expect(run.errors.contains("--html x/y.html: x is a file, not a folder"), "\(run.errors)")
        #expect(!run.errors.contains("full disk"), "\(run.errors)")
    }

    @Test("/dev/null: one clear message, the system's words once")
    func empty() async throws {
        let run = try await report(["/dev/null"], in: Self.snapshots)
        #expect(run.status == 64, "\(run.errors)")
        #expect(run.errors.hasPrefix("/dev/null: is empty, not a results document\n"), "\(run.errors)")
        #expect(!run.errors.contains("cannot read it: cannot read it"), "\(run.errors)")
    }

    @Test("bench.json: what it is, and that hil report reads hil run's results.json")
    func benchFile() async throws {
        let run = try await report(["bench.json"], in: Self.snapshots)
        #expect(run.status == 64, "\(run.errors)")
        #expect(run.errors.contains("\"hil-bench/1\" is hil bench's bench.json, which no hil command reads"), "\(run.errors)")
        #expect(run.errors.contains("hil report reads those only"), "\(run.errors)")
        #expect(!run.errors.contains("report it with the hil that wrote it"), "\(run.errors)")
        #expect(run.errors.split(separator: "\n").filter { $0.hasPrefix("bench.json:") }.count == 1, "one problem: \(run.errors)")
    }
}
