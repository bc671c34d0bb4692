/// The four parts a step's latency splits into (docs/results-format.md, `stagesMs`), in the order they happen.
package enum LatencyStage: String, Sendable, Hashable, CaseIterable {
    /// The step's first command → the command that completed the match handed to the link (a swipe's own length).
    case gesture
    /// Handed to the link → the peripheral received it (BLE, bluetoothd, D-Bus or the acquired socket).
    case link
    /// Received → its uinput write returned (decode, map, inject).
    case peripheral
    /// The uinput write returned → the evdev timestamp of the frame.
    case kernel
}
