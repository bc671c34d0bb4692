/// One of the bridge's two sides.
package enum RadioSide: Sendable, Hashable, CaseIterable {
    /// The kernel, through /dev/vhci: the host's commands and ACL data come from it, events go to it.
    case host
    /// btvirt's server socket: the controller's events and the peer's ACL data come from it.
    case controller
}

/// What one wait of the bridge's loop ended with.
package enum RadioWake: Sendable, Hashable {
    /// The deadline came (or a signal ended the wait early): nothing to read.
    case deadline
    /// These sides have bytes to read, host first.
    case readable([RadioSide])
    /// The bridge is told to stop.
    case stop
    /// Lines came on the control FIFO (`hil radio --control`), without their newlines.
    case control([String])
}

/// What the bridge's loop waits on and moves packets through. `PolledSides` is the real one: two files and a stop pipe
/// under one ppoll. A test's runs on a virtual clock, so the loop's timing is checked to the nanosecond.
package protocol RadioPorts {
    /// Waits until a side has bytes or the bridge is told to stop, but not past `deadline` (nil: no limit).
    mutating func wait(until deadline: RadioInstant?) throws(RadioError) -> RadioWake
    /// The bytes `side` has now: at least one.
    /// - Throws: `RadioError` `.io` naming the side when it failed or closed.
    mutating func read(_ side: RadioSide) throws(RadioError) -> [UInt8]
    /// Writes one whole packet to `side`.
    /// - Throws: `RadioError` `.io` naming the side.
    mutating func write(_ packet: H4Packet, to side: RadioSide) throws(RadioError)
    /// The side's name, for errors and the framer's: "/dev/vhci (hci0)", "btvirt's socket /tmp/bt-server-le".
    func name(of side: RadioSide) -> String
}
