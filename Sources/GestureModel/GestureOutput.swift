public import RemoteTouchProtocol

/// Whether the phone is in its normal state or idle (R11).
public enum Activity: String, Sendable, Hashable, CaseIterable {
    case active
    case idle
}

/// What the gesture model produced, at the time it happened.
public struct GestureOutput: Sendable, Hashable, CustomStringConvertible {
    public enum Event: Sendable, Hashable {
        /// A command handed to the link.
        case send(Command)
        /// The phone went idle or became active again.
        case activity(Activity)
    }

    public var time: Duration
    public var event: Event

    public init(_ time: Duration, _ event: Event) {
        self.time = time
        self.event = event
    }

    public var command: Command? {
        if case .send(let command) = event { return command }
        return nil
    }

    public var description: String {
        let ms = Double(time.components.seconds) * 1000 + Double(time.components.attoseconds) / 1e15
        switch event {
        case .send(let command):
            return "\(ms) ms: \(String(decoding: command.encoded(), as: UTF8.self))"
        case .activity(let activity):
            return "\(ms) ms: [\(activity.rawValue)]"
        }
    }
}

extension Duration {
    /// The duration in milliseconds, as a Double.
    public var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
