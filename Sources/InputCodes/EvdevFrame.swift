
/// One frame read from an evdev node: the events up to (not including) `SYN_REPORT`, stamped with the
/// `SYN_REPORT`'s time on CLOCK_MONOTONIC — the same clock as `MonotonicTime.now()` and `UinputDevice.emit`.
public struct EvdevFrame: Sendable, Hashable, CustomStringConvertible {
    public var frame: InputFrame
    /// The kernel's timestamp of the frame (microsecond resolution).
    public var time: MonotonicTime

    public init(frame: InputFrame, time: MonotonicTime) {
        self.frame = frame
        self.time = time
    }

    /// The frame's events, in the order the kernel delivered them.
    public var events: [InputEvent] { frame.events }

    /// `12.000345 [REL_X 10, REL_Y -5]`
    public var description: String { "\(time) \(frame)" }
}
