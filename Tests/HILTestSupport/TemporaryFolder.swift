import Foundation

/// A new folder of this test's own under the temporary directory (a computer's state folder, a scenario's folder).
package func temporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hil-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
