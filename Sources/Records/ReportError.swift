import System

/// Why results could not be read, merged or written — naming the file, the JSON path and what to do.
package struct ReportError: ExplainedError, Sendable, Equatable {
    package enum Code: String, Sendable {
        /// The file could not be read.
        case unreadable
        /// The file is not JSON.
        case invalidJSON
        /// The file is JSON but not a results document (docs/results-format.md).
        case invalidResults
        /// Results that cannot be merged: shards of different runs, a shard given twice.
        case inconsistentShards
        /// A report file could not be written.
        case cannotWrite
        /// A history folder holds no run (no results.json in it or in its subfolders).
        case noRuns
    }

    package var code: Code
    /// The file the problems are in, when there is one.
    package var file: String?
    /// One line per problem: `scenarios[3].steps[0].latencyMs: expected a number, found a string`.
    package var problems: [String]
    /// The next step for the person reading it, if there is one.
    package var hint: String?

    package init(_ code: Code, file: String?, problems: [String], hint: String? = nil) {
        self.code = code
        self.file = file
        self.problems = problems
        self.hint = hint
    }

    /// Every problem as `file: json.path: message`, one a line; `description` adds the hint below them.
    package var what: String {
        problems.map { problem in file.map { "\($0): \(problem)" } ?? problem }.joined(separator: "\n")
    }
}
