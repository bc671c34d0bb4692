package import System

/// A lab run's failure, with what a person needs to fix it: which place, which command, what it printed, what to
/// run next.
package typealias LabError = ModuleError<LabErrorCode>

/// The kinds of `LabError`.
package enum LabErrorCode: String, Sendable {
    /// labgrid-client is not installed.
    case missingTool
    /// labgrid-client failed, or printed something hil cannot read (no token, no place name).
    case labgrid
    /// A place lacks a resource hil needs (a NetworkService, the HILRig).
    case place
    /// Fewer places than asked for were free in time.
    case noPlaces
    /// No box passed its health check.
    case noHealthyBox
    /// A local command could not be run.
    case command
    /// A file could not be fetched from a box.
    case remote
    /// The boxes' results could not be read or merged.
    case results
    /// The run was stopped or cancelled.
    case interrupted
}
