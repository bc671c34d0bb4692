package import System

/// A failure of the run itself (not a verdict): a timeout waiting for the computer, a broken link. A step that does
/// not apply to the transport says in `what` how to mark the scenario.
package typealias DriverError = ModuleError<DriverErrorCode>

/// The kinds of `DriverError`.
package enum DriverErrorCode: String, Sendable {
    /// The link is down: nothing can be sent.
    case linkDown
    /// The step or send item does not apply to this run's transport.
    case wrongTransport
    /// The computer refused pairing with the code it showed.
    case pairingRefused
    /// What the driver waited for did not come in time.
    case timeout
}
