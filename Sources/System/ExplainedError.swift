/// The one shape of every error the package throws: what failed, naming the thing; a code for the kind of failure,
/// which callers may branch on; and the next step for the person reading it, when there is one.
///
/// `description` is `what`, then the hint on a line of its own after an arrow:
///
///     cannot open /dev/uinput: Permission denied
///       → run as root, or grant access: sudo setfacl -m u:$USER:rw /dev/uinput
///
/// To add an error: a struct with `what`, `hint` and a `Code` — an enum with a `String` raw value and one case per
/// kind its throw sites use, or a `RawRepresentable` struct like `SystemError.Code` when other modules add kinds —
/// declared `ExplainedError`, leaving `description` to this protocol.
package protocol ExplainedError: Error, CustomStringConvertible {
    /// The kinds of failure; the raw value is the kind's name (`permissionDenied`), for logs and JSON.
    associatedtype Code: RawRepresentable, Hashable, Sendable where Code.RawValue == String

    /// The kind of failure; callers branch on it, people read `what` and `hint`.
    var code: Code { get }
    /// What failed, naming the thing: the file and JSON path, the device node, the D-Bus error name.
    var what: String { get }
    /// The next step for the person reading it (`run \`hil doctor\``), if there is one.
    var hint: String? { get }
}

extension ExplainedError {
    /// `what`, then `\n  → hint` when there is a hint.
    package var description: String { Self.render(what, hint: hint) }

    /// The one rendering: `what`, then `\n  → hint` when there is a hint. A type whose `what` is not the whole
    /// message (`SystemError` adds the errno's text and a command's last lines) renders through this too.
    package static func render(_ what: String, hint: String?) -> String {
        hint.map { "\(what)\n  → \($0)" } ?? what
    }
}
