import Foundation

/// A new folder of this test's own under the temporary directory (a computer's state folder, a scenario's folder).
package func temporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hil-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A folder under the system's temporary folder, removed when the value goes away.
package final class TemporaryFolder {
    package let path: String

    package init() throws {
        path = NSTemporaryDirectory() + "hil-report-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `text` to `name` (subfolders are made) and returns its path.
    package func write(_ text: String, to name: String) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
