package import Evdev
package import InputCodes

/// Where mapped events go: the uinput device in the peripheral, a recorder in unit tests.
package protocol InputSink: Sendable {
    /// Injects the frames in order; returns the CLOCK_MONOTONIC time each frame was written.
    func emit(_ frames: [InputFrame]) throws(EvdevError) -> [MonotonicTime]
}

/// A `UinputDevice` as the sink. Access is serialised by the caller (`CommandProcessor` holds its lock).
package final class UinputSink: InputSink, @unchecked Sendable {
    // Safety: `device` is only used inside `emit`, which CommandProcessor calls under its own Mutex.
    private let device: UinputDevice

    package init(_ device: UinputDevice) {
        self.device = device
    }

    package func emit(_ frames: [InputFrame]) throws(EvdevError) -> [MonotonicTime] {
        try device.emit(frames)
    }
}
