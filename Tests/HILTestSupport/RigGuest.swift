package import Foundation
import Processes

/// The package root, found from this file's path.
package let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Tests that need Bluetooth and uinput run inside a rig: a suite is enabled only there
/// (`.enabled(if: RigGuest.isInsideRig, …)`), and a test on the host runs it there with `run(filter:)`, failing
/// with its output when it fails. On this machine the rig is the vm guest; on a nightly box, whatever
/// `--rig auto` picks.
package enum RigGuest {
    /// True inside a rig brought up by `hil rig exec` / `hil vm exec` (they set HIL_RIG).
    package static var isInsideRig: Bool { ProcessInfo.processInfo.environment["HIL_RIG"] != nil }

    /// The adapters of the rig we are in.
    package static var peripheralAdapter: String { ProcessInfo.processInfo.environment["HIL_PERIPHERAL_ADAPTER"] ?? "hci0" }
    package static var centralAdapter: String { ProcessInfo.processInfo.environment["HIL_CENTRAL_ADAPTER"] ?? "hci1" }

    /// The `hil` executable this test run built.
    package static func hilBinary() throws -> String {
        let candidates = [".build/debug/hil", ".build/x86_64-unknown-linux-gnu/debug/hil", ".build/release/hil"]
            .map { packageRoot.appendingPathComponent($0).path }
        guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw RigGuestError("no built hil executable at \(candidates.joined(separator: ", ")); run `swift build` first")
        }
        return found
    }

    /// This test bundle (the running executable).
    package static var testBundle: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    }

    /// Runs the suites matching `filter` of this test bundle inside a rig (`hil rig exec`), one test at a time (they
    /// share the rig's adapters), returning the exit status and everything printed.
    package static func run(filter: String, rig: String = "auto", timeout: Int = 600) async throws -> (status: Int32, output: String) {
        let binary = try hilBinary(), bundle = testBundle
        return try await RigLock.exclusive { try runUnlocked(binary, bundle, filter: filter, rig: rig, timeout: timeout) }
    }

    private static func runUnlocked(_ binary: String, _ bundle: String, filter: String, rig: String, timeout: Int) throws
        -> (status: Int32, output: String)
    {
        // On the rig lock's own thread, which may block (see `RigLock`).
        let run = try ChildProcess.runBlocking(binary, arguments: [
            "rig", "exec", "--rig", rig, "--timeout", "\(timeout)s", "--",
            bundle, "--testing-library", "swift-testing", "--no-parallel", "--filter", filter,
        ], workingDirectory: packageRoot.path, errors: .joined, output: 64 << 20, ownProcessGroup: false, timeout: nil)
        return (run.status, run.standardOutput)
    }
}

package struct RigGuestError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

extension RigGuest {
    /// Runs `filter` in a rig and returns nil when at least one test ran and all passed, else why not (with
    /// the run's output), so a filter that matches nothing can never pass.
    package static func failure(filter: String, rig: String = "auto") async -> String? {
        do {
            let (status, output) = try await run(filter: filter, rig: rig)
            let (passed, summary) = testRunPassed(status, output)
            if passed { return nil }
            return "in-rig tests '\(filter)' did not pass (exit status \(status), summary: \(summary)):\n\(output.suffix(6000))"
        } catch {
            return "cannot run in-rig tests '\(filter)': \(error)"
        }
    }
}
