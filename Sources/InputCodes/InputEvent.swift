/// One evdev event without its timestamp: `EV_KEY KEY_RIGHT 1`.
public struct InputEvent: Sendable, Hashable, CustomStringConvertible {
    public var code: EventCode
    public var value: Int32

    public init(_ code: EventCode, _ value: Int32) {
        self.code = code
        self.value = value
    }

    public static func press(_ code: EventCode) -> InputEvent { InputEvent(code, 1) }
    public static func release(_ code: EventCode) -> InputEvent { InputEvent(code, 0) }

    /// `KEY_RIGHT 1`
    public var description: String { "\(code) \(value)" }
}

/// The events between two `SYN_REPORT`s; the kernel delivers them as one atomic update.
public struct InputFrame: Sendable, Hashable, CustomStringConvertible {
    public var events: [InputEvent]

    public init(_ events: [InputEvent]) {
        self.events = events
    }

    /// `[REL_X 10, REL_Y -5]`
    public var description: String { "[" + events.map(\.description).joined(separator: ", ") + "]" }
}
