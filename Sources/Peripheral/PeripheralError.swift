package import System

/// A failure of the peripheral with what to do about it.
package typealias PeripheralError = ModuleError<PeripheralErrorCode>

/// The kinds of `PeripheralError`.
package enum PeripheralErrorCode: String, Sendable {
    /// BlueZ refused a step of bringing the GATT application up (export, register, advertise).
    case bluez
    /// The adapter did not power on, or the advertisement did not become active.
    case adapter
    /// The D-Bus bus could not be reached, or the well-known name could not be owned.
    case bus
    /// No uinput device: the peripheral cannot inject input events (R10).
    case uinput
    /// The pairing state file cannot be read or is not a pairing state.
    case pairingState
    /// The receipts log cannot be created.
    case receiptsLog
    /// The TCP or UDP endpoint cannot listen.
    case network
    /// The service cannot be published over Bonjour (avahi-daemon).
    case bonjour
    /// A system call failed.
    case systemCall
    /// Held until a start file exists, and the process that started it has gone.
    case starterGone
    /// Cancelled while waiting.
    case interrupted
}
