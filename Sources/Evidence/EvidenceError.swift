package import System

/// A capture that could not be made or cut.
package typealias EvidenceError = ModuleError<EvidenceErrorCode>

/// The kinds of `EvidenceError`.
package enum EvidenceErrorCode: String, Sendable {
    /// A capture tool failed: tcpdump, editcap, tshark.
    case commandFailed
    /// A capture tool is not installed.
    case missingTool
    /// The capture needs the rig's hosts, and this rig has none.
    case hosts
    /// A capture tool did not answer in time.
    case timeout
}
