import Foundation
import HILTestSupport
import Testing

/// A scratch folder that is removed when the test ends.
private func scratchFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hil-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

private func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
}

/// The built `hil`'s offline tools (validate, replay, decode) as a person or a CI job runs them.
@Suite("hil's offline tools: no ok for what was not judged, the same answer in any order, every wire format")
struct OfflineToolsTests {
    @Test("validate checks each file's ids against the catalog above that file, so the order of paths does not matter")
    func catalogPerFile() throws {
        let folder = try scratchFolder("catalog")
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(#"{"requirements": [{"id": "R1.1", "text": "x"}]}"#, to: folder.appendingPathComponent("suite/requirements.json"))
        let inSuite = folder.appendingPathComponent("suite/a.json")
        try write(#"{"name": "a", "requirements": ["R99.9"], "steps": [{"tap": {}, "expect": {"absent": true}}]}"#, to: inSuite)
        let outside = folder.appendingPathComponent("loose/b.json")
        try write(#"{"name": "b", "requirements": ["R5"], "steps": [{"tap": {}, "expect": {"absent": true}}]}"#, to: outside)
        let forward = try runSeparating(try RigGuest.hilBinary(), ["validate", inSuite.path, outside.path])
        let backward = try runSeparating(try RigGuest.hilBinary(), ["validate", outside.path, inSuite.path])
        for run in [forward, backward] {
            #expect(run.status == 1)
            #expect(run.errors.contains("\(inSuite.path):1:"), "\(run.errors)")
            #expect(run.errors.contains("requirements[0]: R99.9 is not in"), "\(run.errors)")
            #expect(!run.errors.contains("R5"), "a file with no catalog above it has no ids to check: \(run.errors)")
        }
    }

    @Test("validate run from another folder names the folder it looked in and says to pass a path, without the usage")
    func defaultPathElsewhere() throws {
        let folder = try scratchFolder("elsewhere")
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in ["validate", "replay"] {
            let run = try runSeparating(try RigGuest.hilBinary(), [command], in: folder)
            #expect(run.status == 64)
            #expect(run.errors.contains("hil \(command): Scenarios: no such file or folder in \(folder.path)"), "\(run.errors)")
            #expect(run.errors.contains("pass the scenario files or folders"), "\(run.errors)")
            #expect(!run.errors.contains("Usage:"), "\(run.errors)")
        }
    }

    @Test("validate: a scenario that checks nothing is a problem, at line 1 column 1")
    func checksNothing() throws {
        let folder = try scratchFolder("nothing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bare.json")
        try write(#"{"name": "b", "steps": [{"tap": {}}]}"#, to: file)
        let run = try runSeparating(try RigGuest.hilBinary(), ["validate", file.path])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(file.path):1:1: (document): checks nothing"), "\(run.errors)")
    }
}
