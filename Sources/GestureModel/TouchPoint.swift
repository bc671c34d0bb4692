public import RemoteTouchProtocol

/// One finger on the touch surface: a stable id while it stays down, and its location in points
/// (UIKit coordinates: x grows to the right, y grows downwards).
public struct TouchPoint: Sendable, Hashable {
    public var id: Int
    public var location: Point

    public init(id: Int, x: Double, y: Double) {
        self.id = id
        self.location = Point(x: x, y: y)
    }

    public init(id: Int, location: Point) {
        self.id = id
        self.location = location
    }
}

/// What the phone's UI hands the gesture model, at a time.
public enum TouchInput: Sendable, Hashable {
    /// The complete set of fingers now on the surface; empty when the last one lifted.
    case touches([TouchPoint])
    /// The ← / → buttons below the touchpad (R3).
    case button(ButtonAction)
    /// The user picked a mode (R7).
    case mode(ControlMode)
    /// A key of the on-screen keyboard, with the sticky modifiers that were on (iPad design).
    case key(Key, modifiers: [KeyModifier])
    /// Text typed or pasted into the keyboard field (iPad design).
    case text(String)
}

/// A `TouchInput` at a time since the start of the trace.
public struct TimedInput: Sendable, Hashable {
    public var time: Duration
    public var input: TouchInput

    public init(_ time: Duration, _ input: TouchInput) {
        self.time = time
        self.input = input
    }
}
