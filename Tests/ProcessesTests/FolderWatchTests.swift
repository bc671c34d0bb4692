import Foundation
import Processes
import System
import Testing
import Waiting

@Suite("FolderWatch: a folder's files, written by anyone on this machine, as changes")
struct FolderWatchTests {
    @Test("a file written into the folder is a change, awaited long before its timeout; a quiet folder is not")
    func fileWritten() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hil-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let watch = try FolderWatch(folder)
        defer { watch.stop() }
        #expect(try await watch.changes.next(after: watch.changes.generation, within: .milliseconds(100)) == false)
        let seen = watch.changes.generation
        let start = ContinuousClock.now
        Task.detached { try "123456\n".write(toFile: folder + "/pairing-code", atomically: true, encoding: .utf8) }
        #expect(try await watch.changes.next(after: seen, within: .seconds(600)))
        #expect(ContinuousClock.now - start < .seconds(30))
        let code = try await watch.changes.until("the pairing code", timeout: .seconds(600)) {
            try? String(contentsOfFile: folder + "/pairing-code", encoding: .utf8)
        }
        #expect(code == "123456\n")
    }

    @Test("a folder that does not exist cannot be watched: the error names it and the errno")
    func missingFolder() {
        let error = #expect(throws: SystemError.self) { _ = try FolderWatch("/nonexistent/hil-watch") }
        #expect(error?.code == .cannotWatch)
        #expect(error?.errno == .noSuchFileOrDirectory)
        #expect(error?.description.contains("/nonexistent/hil-watch") == true)
    }
}
