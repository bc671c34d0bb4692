package import System

/// A phone link's failure that is not a verdict: the link, the rig's hosts or the computer did not do their part.
package typealias LinkError = ModuleError<LinkErrorCode>

/// The kinds of `LinkError`.
package enum LinkErrorCode: String, Sendable {
    /// The phone is not connected, or the link failed under it: nothing could be sent.
    case link
    /// Something the phone waited for did not happen in time.
    case timeout
    /// The step needs the rig's hosts (its network namespaces), and this rig has none or they are not as expected.
    case hosts
    /// The step, send item or command does not apply to this link's transport.
    case wrongTransport
    /// The phone and the computer did not pair, or the computer's pairing state could not be read.
    case pairing
    /// The computer lacks what the step needs (a characteristic, a port).
    case computer
    /// A command the link ran failed: tc, hcitool, btmgmt.
    case commandFailed
}
