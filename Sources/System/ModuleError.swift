/// The error of a module whose failures are the one shape and nothing more: a kind, what failed, the next step. The
/// module declares its kinds as an enum and names its error after itself:
///
///     package enum RigErrorCode: String, Sendable { case rigFile, unknownRig, … }
///     package typealias RigError = ModuleError<RigErrorCode>
///
/// then throws `RigError(.unknownRig, "no rig named \"lab\"", hint: "`hil doctor` lists the rigs")`, and callers
/// catch `RigError` and branch on `error.code`. An error that carries more (an errno, a path, a D-Bus error name) is
/// its own struct declaring `ExplainedError`.
package struct ModuleError<Code>: ExplainedError, Sendable, Hashable
where Code: RawRepresentable & Hashable & Sendable, Code.RawValue == String {
    package var code: Code
    /// What failed, naming the thing: the file, device, host, step or command.
    package var what: String
    /// The next step for the person reading it, if there is one.
    package var hint: String?

    package init(_ code: Code, _ what: String, hint: String? = nil) {
        self.code = code
        self.what = what
        self.hint = hint
    }
}
