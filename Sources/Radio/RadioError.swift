package import System

/// A failure of the radio bridge: what was being done, naming the device or socket, and what to do next.
package typealias RadioError = ModuleError<RadioErrorCode>

/// The kinds of `RadioError`.
package enum RadioErrorCode: String, Sendable {
    /// A stream held a byte that starts no H4 packet.
    case framing
    /// /dev/vhci could not be opened or would not make a controller.
    case controller
    /// Reading or writing one of the two sides failed, or a side closed.
    case io
    /// A control line the bridge does not take (`BridgeCommand`).
    case invalidCommand
    /// /dev/vhci refused a packet for its host with ENXIO or ENODEV: the kernel's controller is down, with no host
    /// behind it (a program that owned it through the HCI user channel went away, or bluetoothd powered it off).
    case hostGone
}
