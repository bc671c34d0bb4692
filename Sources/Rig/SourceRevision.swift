import Foundation
import Processes

/// The commit a `hil` was built from, for results.json's `environment.commit`: what a history lists beside each run.
package enum SourceRevision {
    /// Set by whoever builds and runs `hil` elsewhere (nightly.sh from the file install.sh writes, a CI job).
    package static let variable = "HIL_COMMIT"

    /// The commit: `HIL_COMMIT` when set, else git's HEAD of the source folder the executable was built in
    /// (`…/.build/<config>/hil` → `…`), with `+dirty` when tracked files differ from it; nil when neither says.
    ///
    /// - Parameters:
    ///   - executable: the resolved path of the running `hil`.
    ///   - environment: the process's environment.
    package static func probe(executable: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String?
    {
        if let given = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !given.isEmpty {
            return given
        }
        guard let folder = sourceFolder(of: executable),
              let head = git(["rev-parse", "HEAD"], in: folder), !head.isEmpty
        else { return nil }
        let changes = git(["status", "--porcelain", "--untracked-files=no"], in: folder)
        return head + (changes?.isEmpty == false ? "+dirty" : "")
    }

    /// The folder holding the `.build` folder the executable is in, when it also holds Package.swift.
    package static func sourceFolder(of executable: String) -> String? {
        let parts = URL(fileURLWithPath: executable).standardizedFileURL.pathComponents
        guard let build = parts.lastIndex(of: ".build"), build > 0 else { return nil }
        let folder = NSString.path(withComponents: Array(parts[..<build]))
        return FileManager.default.fileExists(atPath: folder + "/Package.swift") ? folder : nil
    }

    private static func git(_ arguments: [String], in folder: String) -> String? {
        guard let run = try? ChildProcess.runBlocking(
            "git", arguments: ["-C", folder] + arguments, errors: .discarded, timeout: .seconds(5)), run.succeeded
        else { return nil }
        return run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
