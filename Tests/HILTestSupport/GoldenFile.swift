package import Foundation
package import Testing

/// Golden-file comparison against Tests/ReportTests/Snapshots, for every test target whose writers make files Report
/// also checks; `HIL_RECORD_SNAPSHOTS=1` rewrites the files instead.
package enum GoldenFile {
    package static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ReportTests/Snapshots")

    package static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["HIL_RECORD_SNAPSHOTS"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        guard expected != actual else { return }
        let (old, new) = (expected.components(separatedBy: "\n"), actual.components(separatedBy: "\n"))
        let first = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(old.count, new.count)
        Issue.record(
            """
            \(name) differs from the golden file at line \(first + 1):
              expected: \(first < old.count ? old[first].debugDescription : "(end of file)")
              actual:   \(first < new.count ? new[first].debugDescription : "(end of file)")
            (HIL_RECORD_SNAPSHOTS=1 rewrites the golden files)
            """, sourceLocation: sourceLocation)
    }
}
