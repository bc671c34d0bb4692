/// The error of a module whose failures are the one shape and nothing more: a kind, what failed, the next step. The
/// module declares its kinds as an enum and names its error after itself:
///
///     package enum RigErrorCode: String, Sendable { case rigFile, unknownRig, … }
///     package typealias RigError = ModuleError<RigErrorCode>
///
/// then throws `RigError(.unknownRig, "no rig named \"lab\"", hint: "`hil doctor` lists the rigs")`, and callers
/// catch `RigError` and branch on `error.code`. An error that wraps another (a D-Bus error, a child process's, a
/// system call's) keeps it as `cause`, so a caller can still branch on what happened underneath. An error that
/// carries more (an errno, a path, a D-Bus error name) is its own struct declaring `ExplainedError`.
package struct ModuleError<Code>: ExplainedError, Sendable, Hashable
where Code: RawRepresentable & Hashable & Sendable, Code.RawValue == String {
    package var code: Code
    /// What failed, naming the thing: the file, device, host, step or command (a wrapped error's text included
    /// where the person reading it needs it).
    package var what: String
    /// The next step for the person reading it, if there is one.
    package var hint: String?
    /// The error this one wraps, kept whole: `(error.cause as? DBusError)?.name`, `error.cause is CancellationError`.
    package var cause: (any Error)?

    package init(_ code: Code, _ what: String, hint: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.what = what
        self.hint = hint
        self.cause = cause
    }

    /// Equal when the code, the text and the hint are, and the causes read the same.
    package static func == (left: Self, right: Self) -> Bool {
        left.code == right.code && left.what == right.what && left.hint == right.hint
            && left.cause.map { "\($0)" } == right.cause.map { "\($0)" }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(what)
        hasher.combine(hint)
        hasher.combine(cause.map { "\($0)" })
    }
}
