import Foundation

/// Debian's Chromium, run headless on local files: how the rendering test sees the report as a browser does.
struct Chromium {
    let executable: String

    /// `chromium` on PATH (Debian installs /usr/bin/chromium); nil when it is not installed.
    static func find() -> Chromium? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/chromium"
            if FileManager.default.isExecutableFile(atPath: candidate) { return Chromium(executable: candidate) }
        }
        return nil
    }

    struct Run {
        var status: Int32
        var standardOutput: Data
        var standardError: String
        var timedOut: Bool
    }

    /// Runs headless Chromium with `arguments` on `url`, in a profile of its own under `folder`, killed after
    /// `timeout` seconds. Its dbus and GPU warnings on standard error are harmless.
    func run(_ arguments: [String], url: URL, in folder: String, timeout: TimeInterval = 60) throws -> Run {
        let profile = folder + "/chromium-profile-" + UUID().uuidString
        let outputPath = folder + "/chromium-\(UUID().uuidString).out"
        let errorPath = outputPath + ".err"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        defer {
            try? output.close()
            try? errors.close()
            try? FileManager.default.removeItem(atPath: profile)
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
            "--user-data-dir=\(profile)",
        ] + arguments + [url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let timedOut = process.isRunning
        if timedOut {
            process.terminate()
            let grace = Date().addingTimeInterval(5)
            while process.isRunning && Date() < grace { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            standardOutput: (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data(),
            standardError: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "", timedOut: timedOut)
    }
}
