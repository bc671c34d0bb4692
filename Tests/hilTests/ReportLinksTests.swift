import Foundation
import HILTestSupport
import Testing

/// `hil report` writes reports that can be uploaded: every link in report.html, summary.md and a merged
/// results.json is relative to the file that holds it, so it still leads to its file once the folder has moved.
@Suite("hil report: links that survive moving the folder")
struct ReportLinksTests {
    /// A shard's results.json with one failed scenario and its captures (relative to the file, as hil run writes
    /// them), and the capture files themselves.
    static func shard(_ index: Int, in folder: String) throws {
        let scenario = String(format: "%03d-drag", index)
        try FileManager.default.createDirectory(atPath: folder + "/" + scenario, withIntermediateDirectories: true)
        for name in ["timeline.json", "hci.btsnoop", "evdev.log"] {
            try "capture\n".write(toFile: "\(folder)/\(scenario)/\(name)", atomically: true, encoding: .utf8)
        }
        let results = """
            {"format": "hil-results/1", "shard": {"index": \(index), "count": 2}, "passed": 1, "failed": 1,
             "scenarios": [
              {"file": "Scenarios/drag.json", "name": "drag \(index)", "outcome": "failed", "transport": "ble",
               "captures": {"timeline": "\(scenario)/timeline.json", "hci": "\(scenario)/hci.btsnoop",
                            "evdev": "\(scenario)/evdev.log"},
               "steps": [{"index": 0, "kind": "drag", "outcome": "failed", "commands": 1, "message": "expected BTN_LEFT 0"}]},
              {"file": "Scenarios/gatt.json", "name": "gatt only", "outcome": "notApplicable", "transport": "tcp", "steps": []}
             ]}
            """
        try results.write(toFile: folder + "/results.json", atomically: true, encoding: .utf8)
    }

    @Test("report.html, summary.md and --merged written elsewhere: after the whole folder moved, every link leads to its file")
    func movedFolder() async throws {
        let root = NSTemporaryDirectory() + "hil-links-\(UUID().uuidString)"
        let moved = root + "-moved"
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: moved)
        }
        // A folder name that needs percent-encoding in a link: a space and a '#'.
        let shards = root + "/shards #1"
        try Self.shard(1, in: shards + "/box1")
        try Self.shard(2, in: shards + "/box2")
        try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        let hil = try RigGuest.hilBinary()
        let merged = try await runSeparating(hil, [
            "report", "shards #1/box1/results.json", "shards #1/box2/results.json",
            "--html", "out/report.html", "--markdown", "out/summary.md", "--merged", "out/merged.json",
        ], in: URL(fileURLWithPath: root))
        #expect(merged.status == 0, "\(merged.errors)")
        // The report beside its results.json, given by an absolute path.
        let beside = try await runSeparating(hil, ["report", shards + "/box1/results.json", "--html", shards + "/box1/report.html"])
        #expect(beside.status == 0, "\(beside.errors)")

        try FileManager.default.moveItem(atPath: root, toPath: moved)
        let files = ["out/report.html", "out/summary.md", "out/merged.json", "shards #1/box1/report.html"]
        var followed: [String: Int] = [:]
        for file in files {
            let links = try ReportLinks.links(in: moved + "/" + file)
            let broken = links.filter { $0.problem != nil }
            #expect(broken.isEmpty, "\(broken.map(\.description).joined(separator: "\n"))")
            followed[file] = links.filter { !$0.target.hasPrefix("#") }.count
        }
        // Both shards' three captures from the merged report, one shard's beside its results: nothing went unlinked.
        #expect(followed == ["out/report.html": 6, "out/summary.md": 0, "out/merged.json": 6, "shards #1/box1/report.html": 3])
        let html = try String(contentsOfFile: moved + "/out/report.html", encoding: .utf8)
        #expect(html.contains("href=\"../shards%20%231/box1/001-drag/hci.btsnoop\""))
    }
}
