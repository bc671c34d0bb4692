/// The one shape of a failure below the domain modules: what was being done, the kind of failure, the errno when a
/// system call failed, and the next step for the person reading it (swift-subprocess's `SubprocessError`: an
/// extensible `Code` plus the underlying `Errno`).
///
/// `description` reads `cannot start /usr/sbin/tc: No such file or directory`, then any details (the last lines a
/// command printed), then `  → hint`: the one shape of `ExplainedError`, with the errno and details between.
package struct SystemError: ExplainedError, Sendable, Hashable {
    /// The kind of failure; callers branch on it. Modules add their own kinds in extensions (`Processes` adds
    /// `.cannotStart`, `.timedOut`, `.outputLimitExceeded`).
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package var rawValue: String

        package init(rawValue: String) {
            self.rawValue = rawValue
        }

        package init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        package var description: String { rawValue }

        /// A system call failed; `errno` says why.
        package static let systemCall = Code("systemCall")
    }

    package var code: Code
    /// What was being done, naming the thing: `cannot start /usr/sbin/tc`.
    package var what: String
    /// The errno of the failed call, when a call failed.
    package var errno: Errno?
    /// More to read, such as what a command printed before it was stopped.
    package var details: String?
    /// The next step for the person reading it, if there is one.
    package var hint: String?

    package init(_ code: Code, _ what: String, errno: Errno? = nil, details: String? = nil, hint: String? = nil) {
        self.code = code
        self.what = what
        self.errno = errno
        self.details = details
        self.hint = hint
    }

    /// `what`, with the errno's text when there is one: the message without details or hint.
    package var message: String { errno.map { "\(what): \($0)" } ?? what }

    /// The message and the details' last lines: the description without the hint, for an error that wraps this one
    /// and gives its own next step.
    package var text: String {
        guard let details, !details.isEmpty else { return message }
        let lines = details.split(separator: "\n").suffix(Self.detailLines)
        return message + "\n" + lines.map { "  | \($0)" }.joined(separator: "\n")
    }

    package var description: String { Self.render(text, hint: hint) }

    /// How many of the details' last lines `description` shows.
    package static let detailLines = 10
}
