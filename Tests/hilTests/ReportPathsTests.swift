import Foundation
import HILTestSupport
import Testing

/// `hil report`'s paths as a newcomer gives them (issue "A newcomer never stumbles", item 3): the folder `hil run`
/// wrote, an output in a folder not made yet, an output that is a folder; never Foundation's error text.
@Suite("hil report: the results folder, output paths checked before the work, reasons in plain words")
struct ReportPathsTests {
    static let fixture = packageRoot.appendingPathComponent("Tests/ReportTests/Snapshots/results-single.json").path

    /// A run folder as `hil run` leaves it: results.json inside.
    func runFolder() throws -> URL {
        let folder = try scratchFolder("report-paths")
        let results = folder.appendingPathComponent("results")
        try FileManager.default.createDirectory(at: results, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: results.appendingPathComponent("results.json").path)
        return folder
    }

    @Test("the results folder stands for its results.json")
    func folder() async throws {
        let folder = try runFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let byFolder = try await runSeparating(try RigGuest.hilBinary(), ["report", "results"], in: folder)
        let byFile = try await runSeparating(try RigGuest.hilBinary(), ["report", "results/results.json"], in: folder)
        #expect(byFolder.status == 0, "\(byFolder.errors)")
        #expect(byFolder.output == byFile.output && !byFolder.output.isEmpty)
    }

    @Test("--html into a folder not made yet: the folder is made and the page written")
    func missingFolder() async throws {
        let folder = try runFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await runSeparating(try RigGuest.hilBinary(), ["report", "results", "--html", "out/deeper/report.html"], in: folder)
        #expect(run.status == 0, "\(run.errors)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/deeper/report.html").path))
    }

    @Test("--html naming a folder is refused before any work: no summary printed, the reason and a file name to use")
    func outputIsFolder() async throws {
        let folder = try runFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await runSeparating(try RigGuest.hilBinary(), ["report", "results", "--html", "results"], in: folder)
        #expect(run.status == 64)
        #expect(run.output.isEmpty, "the summary came before the refusal: \(run.output)")
        #expect(run.errors.contains("--html results: is a folder: give a file name in it, e.g. results/report.html"), "\(run.errors)")
    }

    @Test("a results file that cannot be read says why in the system's words, never Foundation's error text")
    func unreadable() async throws {
        let folder = try scratchFolder("report-unreadable")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
        for (path, reason) in [("missing.json", "No such file or directory"), ("empty", "No such file or directory")] {
            let run = try await runSeparating(try RigGuest.hilBinary(), ["report", path], in: folder)
            #expect(run.status == 64)
            #expect(run.errors.contains(reason), "\(path): \(run.errors)")
            for foundation in ["NSCocoaErrorDomain", "couldn’t", "couldn't"] {
                #expect(!run.errors.contains(foundation), "\(path): \(run.errors)")
            }
        }
    }
}
