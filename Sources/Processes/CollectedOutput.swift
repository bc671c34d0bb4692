import Foundation

/// What a command run by `ChildProcess.run` printed, and how it ended.
package struct CollectedOutput: Sendable, Equatable {
    /// The command as a person would type it (`tc -n phone qdisc del dev hilp0 root`), for messages.
    package var command: String
    package var termination: ChildProcess.Termination
    /// Its standard output (with `errors: .joined`, both streams in the order they were written).
    package var standardOutput: String
    /// Its standard error with `errors: .collected`; empty otherwise.
    package var standardError: String

    package init(command: String, termination: ChildProcess.Termination, standardOutput: String,
                 standardError: String)
    {
        self.command = command
        self.termination = termination
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The exit status, 128 + N for a death by signal N.
    package var status: Int32 { termination.status }

    /// It exited with status 0.
    package var succeeded: Bool { termination == .exited(0) }

    /// Standard output, then standard error, each without surrounding blank lines: for a message.
    package var text: String {
        [standardOutput, standardError].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// How much of each stream `run` keeps unless told otherwise: 4 MiB.
    package static let defaultLimit = 4 << 20
}
