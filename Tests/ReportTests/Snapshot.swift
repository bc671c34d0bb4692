import Foundation
import Testing

/// Golden files for the writers, in Tests/ReportTests/Snapshots: a test compares a writer's output with its file
/// byte for byte and, when they differ, says at which line, with both lines.
///
/// After a deliberate change of a format, rewrite the files and review the diff with git:
/// `HIL_RECORD_SNAPSHOTS=1 swift test --filter ReportTests` (RunnerTests.WriterSnapshotTests checks the same
/// results.json and junit.xml files from the runner's side).
enum Snapshot {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// The golden file's text.
    static func golden(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// Records an issue when `actual` is not the golden file `name`; with `HIL_RECORD_SNAPSHOTS=1`, writes it.
    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if ProcessInfo.processInfo.environment["HIL_RECORD_SNAPSHOTS"] == "1" {
            try actual.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            return
        }
        let expected = try golden(name)
        guard expected != actual else { return }
        Issue.record(Comment(rawValue: difference(expected, actual, name: name)), sourceLocation: sourceLocation)
    }

    /// The first differing line of two texts, expected above actual, with a few lines of context.
    static func difference(_ expected: String, _ actual: String, name: String) -> String {
        let old = expected.components(separatedBy: "\n")
        let new = actual.components(separatedBy: "\n")
        let first = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(old.count, new.count)
        func line(_ lines: [String], _ index: Int) -> String {
            index < lines.count ? lines[index].debugDescription : "(end of file)"
        }
        let context = old[max(0, first - 3)..<min(first, old.count)].map { "    " + $0 }.joined(separator: "\n")
        return """
            \(name) differs from its golden file at line \(first + 1) \
            (\(old.count) lines expected, \(new.count) written):
            \(context)
            - expected: \(line(old, first))
            + actual:   \(line(new, first))
            (HIL_RECORD_SNAPSHOTS=1 rewrites the golden files; review the diff with git)
            """
    }
}
