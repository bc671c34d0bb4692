package import System

/// What a run's shared context cannot give: the rig's hosts, a scenario's folder.
package typealias RunContextError = ModuleError<RunContextErrorCode>

/// The kinds of `RunContextError`.
package enum RunContextErrorCode: String, Sendable {
    /// The step needs the rig's hosts (its network namespaces), and this rig has none.
    case hosts
    /// The scenario's files could not be moved or read.
    case files
}
