import Foundation
import Processes
import System

/// Debian's Chromium, run headless on local files: how the rendering test sees the report as a browser does.
struct Chromium {
    let executable: String

    /// `chromium` on PATH (Debian installs /usr/bin/chromium); nil when it is not installed.
    static func find() -> Chromium? {
        ChildProcess.resolve("chromium").map(Chromium.init(executable:))
    }

    struct Run {
        var status: Int32
        var standardOutput: Data
        var standardError: String
        var timedOut: Bool
    }

    /// Runs headless Chromium with `arguments` on `url`, in a profile of its own under `folder`, stopped (with every
    /// process it started) after `timeout` seconds. Its dbus and GPU warnings on standard error are harmless.
    /// Suspends the test while Chromium runs (seconds each): no thread of the cooperative pool waits for it.
    func run(_ arguments: [String], url: URL, in folder: String, timeout: Int = 60) async throws -> Run {
        let profile = folder + "/chromium-profile-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: profile) }
        do throws(SystemError) {
            let run = try await ChildProcess.run(
                executable,
                arguments: [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                    "--user-data-dir=\(profile)",
                ] + arguments + [url.absoluteString],
                output: 64 << 20, teardown: [.signal(SIGTERM), .wait(.seconds(5)), .kill], timeout: .seconds(timeout))
            return Run(status: run.status, standardOutput: Data(run.standardOutput.utf8), standardError: run.standardError,
                       timedOut: false)
        } catch {
            guard error.code == .timedOut else { throw error }
            return Run(status: 124, standardOutput: Data(), standardError: error.details ?? "", timedOut: true)
        }
    }
}
