/// How the phone's stack writes (docs/protocol.md, "Order"): the styles real clients use.
package enum WritePath: String, Sendable, Hashable, CaseIterable {
    /// `WriteValue` over D-Bus, type `command` without response and `request` with (bleak, most Linux clients);
    /// a hid report that changes the buttons with response.
    case dbus
    /// `AcquireWrite`: a socket that bypasses D-Bus for the commands without response (ours by default).
    case fd
    /// Every command and report through `WriteValue` without response, button changes too: a phone that never
    /// asks for an answer (as iOS apps mostly write). The first write of a connection still waits ("Priming").
    case unconfirmed
    /// Every command and report through `WriteValue` with response, each awaited before the next (bleak's
    /// default when a characteristic allows both).
    case requests
}
