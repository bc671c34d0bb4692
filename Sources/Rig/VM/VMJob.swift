import Foundation

/// What to run in the guest, and how.
package struct VMJob: Sendable {
    package var command: [String]
    /// The guest starts the command here; the host's root is the guest's, so host paths work (not /run).
    package var workingDirectory: String
    /// Variables passed through to the command (PATH at least).
    package var environment: [String: String]

    package init(command: [String], workingDirectory: String, environment: [String: String]) {
        precondition(!command.isEmpty, "a vm job needs a command")
        self.command = command
        self.workingDirectory = workingDirectory
        self.environment = environment
    }

    /// The guest's `job.sh`: POSIX sh, every word single-quoted.
    package var script: String {
        var lines = ["#!/bin/sh"]
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
            lines.append("export \(name)=\(Self.quote(value))")
        }
        let folder = Self.quote(workingDirectory)
        lines.append("cd \(folder) || { echo \"hil vm: cannot enter \"\(folder)\" in the guest (the guest shares every host path but /run)\" >&2; exit 126; }")
        lines.append("exec " + command.map(Self.quote).joined(separator: " "))
        return lines.joined(separator: "\n") + "\n"
    }

    static func quote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
