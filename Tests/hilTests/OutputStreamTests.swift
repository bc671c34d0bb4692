import Foundation
import HILTestSupport
import Testing

/// What the built `hil` prints where: problems on standard error, the lines and the summary on standard output.
@Suite("hil's output: problems on standard error, one line per file with -q")
struct OutputStreamTests {
    static let good = packageRoot.appendingPathComponent("Scenarios-nightly/buttons/basic-mouse-mode.json").path

    /// A folder with one scenario file that is not a scenario.
    static func badFolder() throws -> (folder: String, file: String) {
        let folder = NSTemporaryDirectory() + "hil-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/bad.json"
        try #"{"name": 3}"#.write(toFile: file, atomically: true, encoding: .utf8)
        return (folder, file)
    }

    @Test("validate: a line per good file and the summary on stdout, the problem on stderr")
    func validateStreams() async throws {
        let (folder, bad) = try Self.badFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try await runSeparating(try RigGuest.hilBinary(), ["validate", Self.good, bad])
        #expect(run.status == 64)
        #expect(run.output == "ok  \(Self.good): 2 steps, 2 check(s)\n2 file(s), 1 with problems\n", "\(run.output)")
        #expect(run.errors.contains(bad), "\(run.errors)")
        let quiet = try await runSeparating(try RigGuest.hilBinary(), ["validate", "-q", Self.good, bad])
        #expect(quiet.output == "2 file(s), 1 with problems\n", "\(quiet.output)")
        #expect(quiet.errors == run.errors)
    }

    @Test("replay -q: one line per script, then the totals")
    func replayQuiet() async throws {
        let run = try await runSeparating(try RigGuest.hilBinary(), ["replay", "-q", Self.good, Self.good])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 3, "\(run.output)")
        #expect(lines.first?.hasPrefix("[1/2] ok \(Self.good) — ") == true && lines.first?.contains(" commands, ") == true)
        #expect(lines.last?.hasPrefix("replayed 2 script(s): ") == true)
        #expect(run.errors.isEmpty)
    }
}
