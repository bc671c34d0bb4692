package import Foundation
import Processes

/// Runs a program to its end with no input and returns its exit status and everything it printed (stdout and
/// stderr together), through `ChildProcess.run`: in our process group, with no time limit of its own (a test's own
/// limits apply), up to 64 MiB of output.
///
/// The test's task is suspended while the program runs; no thread waits. Swift Testing runs a test's body on one of
/// the cooperative pool's threads (two here): a test that blocked one for a program of seconds (the `hil` binary,
/// headless Chromium) held up every other test's next step, and CI saw a 2 s wait take 19 s.
package func runCapturing(_ executable: String, _ arguments: [String], in folder: URL? = nil) async throws
    -> (status: Int32, output: String)
{
    let run = try await ChildProcess.run(executable, arguments: arguments, workingDirectory: folder?.path, errors: .joined,
                                         output: 64 << 20, ownProcessGroup: false, timeout: nil)
    return (run.status, run.standardOutput)
}

/// Runs a program to its end with no input and returns its exit status, its standard output and its standard error
/// apart, for a test of what goes where. Both streams are read as they come, so neither can fill a pipe while the
/// other is read; like `runCapturing`, no thread waits for it.
package func runSeparating(_ executable: String, _ arguments: [String], in folder: URL? = nil) async throws
    -> (status: Int32, output: String, errors: String)
{
    let run = try await ChildProcess.run(executable, arguments: arguments, workingDirectory: folder?.path,
                                         output: 64 << 20, ownProcessGroup: false, timeout: nil)
    return (run.status, run.standardOutput, run.standardError)
}

/// Whether a Swift Testing run's output ends with a passing summary of at least one test, and that summary.
package func testRunPassed(_ status: Int32, _ output: String) -> (passed: Bool, summary: String) {
    let summary = output.split(separator: "\n").last { $0.contains("Test run with") }.map(String.init) ?? ""
    return (status == 0 && summary.contains("passed") && !summary.contains("with 0 tests"), summary.isEmpty ? "none" : summary)
}

/// Writes a script that a test is about to run, as an executable at `path`.
///
/// Not written from this process: while its write descriptor is open, another test's `fork` can copy it into a
/// child that has not reached `exec` yet, and running the script then fails with ETXTBSY ("Text file busy"). The
/// text goes to a sibling file, and `install` (a process of its own, whose descriptors no fork here inherits)
/// makes the executable from it, a different inode.
package func writeExecutable(_ text: String, to path: String) async throws {
    let draft = path + ".draft"
    try text.write(toFile: draft, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: draft) }
    let (status, output) = try await runCapturing("/usr/bin/install", ["-m", "755", draft, path])
    guard status == 0 else { throw SpawnError("install -m 755 \(draft) \(path) exited \(status): \(output)") }
}

/// A helper process that did not do its job, with what it printed.
package struct SpawnError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
