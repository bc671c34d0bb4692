import Foundation
import RunContext
import Testing

@Suite("Scenario folders run on a local scratch folder and are moved into the results")
struct ScratchFolderTests {
    /// A scratch folder and a results folder, both fresh, under `scratchBase` and `base`.
    private static func folder(base: String, scratchBase: String) throws -> ScratchFolder {
        let tag = "hil-folders-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let folder = ScratchFolder(path: scratchBase + "/" + tag + "-scratch", results: base + "/" + tag + "-results")
        try FileManager.default.createDirectory(atPath: folder.results, withIntermediateDirectories: true)
        return folder
    }

    private static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    private static func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    private static func device(_ path: String) throws -> UInt64 {
        try #require((FileManager.default.attributesOfItem(atPath: path)[.systemNumber] as? NSNumber)?.uint64Value)
    }

    @Test("on one file system: every file, sub-folders too, ends in the results, and the scratch folder is gone")
    func sameFileSystem() throws {
        let scratch = try Self.folder(base: NSTemporaryDirectory(), scratchBase: NSTemporaryDirectory())
        try Self.write("log\n", scratch.path + "/001-a/peripheral.out")
        try Self.write("{}", scratch.path + "/001-a/state/pairing.json")
        try Self.write("ahead\n", scratch.path + "/002-b/peripheral.out")
        #expect(scratch.finish().isEmpty)
        #expect(Self.read(scratch.results + "/001-a/peripheral.out") == "log\n")
        #expect(Self.read(scratch.results + "/001-a/state/pairing.json") == "{}")
        #expect(Self.read(scratch.results + "/002-b/peripheral.out") == "ahead\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
    }

    @Test("across file systems (tmpfs to disk, as the vm guest's /run to its share): copied, then removed from scratch")
    func acrossFileSystems() throws {
        let scratch = try Self.folder(base: NSTemporaryDirectory(), scratchBase: "/dev/shm")
        try Self.write("frames\n", scratch.path + "/001-a/evdev.log")
        try #require(try Self.device(scratch.path) != Self.device(scratch.results), "/dev/shm and the temporary folder are one file system here")
        #expect(scratch.finish().isEmpty)
        #expect(Self.read(scratch.results + "/001-a/evdev.log") == "frames\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
    }

    @Test("a results folder that already has the scenario's folder: the files are merged, the scratch ones win")
    func merged() throws {
        let scratch = try Self.folder(base: NSTemporaryDirectory(), scratchBase: NSTemporaryDirectory())
        try Self.write("earlier\n", scratch.results + "/001-a/kept.txt")
        try Self.write("old\n", scratch.results + "/001-a/peripheral.out")
        try Self.write("new\n", scratch.path + "/001-a/peripheral.out")
        #expect(scratch.finish().isEmpty)
        #expect(Self.read(scratch.results + "/001-a/kept.txt") == "earlier\n")
        #expect(Self.read(scratch.results + "/001-a/peripheral.out") == "new\n")
    }

    @Test("a move that fails names both folders, and the files stay in the scratch folder")
    func failure() throws {
        let scratch = try Self.folder(base: NSTemporaryDirectory(), scratchBase: "/dev/shm")
        try Self.write("log\n", scratch.path + "/001-a/peripheral.out")
        // A file where the scenario's folder should go: neither a rename nor a copy can put a folder there.
        try Self.write("in the way\n", scratch.results + "/001-a")
        let problems = scratch.finish()
        #expect(problems.count == 1)
        #expect(problems.first?.contains(scratch.path + "/001-a") == true)
        #expect(problems.first?.contains(scratch.results + "/001-a") == true)
        #expect(Self.read(scratch.path + "/001-a/peripheral.out") == "log\n")
    }

    @Test("a scenario's folder moved in the background is in the results once finish returns; a failed move is tried again and reported once")
    func inTheBackground() throws {
        let scratch = try Self.folder(base: NSTemporaryDirectory(), scratchBase: "/dev/shm")
        for number in 1...20 { try Self.write("scenario \(number)\n", scratch.path + "/\(number)-s/peripheral.out") }
        try Self.write("in the way\n", scratch.results + "/21-s")
        try Self.write("blocked\n", scratch.path + "/21-s/peripheral.out")
        for number in 1...21 { scratch.saveLater("\(number)-s") }
        let problems = scratch.finish()
        for number in 1...20 { #expect(Self.read(scratch.results + "/\(number)-s/peripheral.out") == "scenario \(number)\n") }
        // The failed one was tried in the background and again at the end, reported once, and kept in scratch.
        #expect(problems.count == 1 && problems.allSatisfy { $0.contains(scratch.path + "/21-s") }, "\(problems)")
        #expect(Self.read(scratch.path + "/21-s/peripheral.out") == "blocked\n")
    }
}
