public import Foundation

/// Runs a program to its end with no input and returns its exit status and everything it printed (stdout and
/// stderr together).
public func runCapturing(_ executable: String, _ arguments: [String], in folder: URL? = nil) throws
    -> (status: Int32, output: String)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
}

/// Whether a Swift Testing run's output ends with a passing summary of at least one test, and that summary.
public func testRunPassed(_ status: Int32, _ output: String) -> (passed: Bool, summary: String) {
    let summary = output.split(separator: "\n").last { $0.contains("Test run with") }.map(String.init) ?? ""
    return (status == 0 && summary.contains("passed") && !summary.contains("with 0 tests"), summary.isEmpty ? "none" : summary)
}
