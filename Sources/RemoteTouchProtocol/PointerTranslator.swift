/// One pointer report's content, whatever carries it: the buttons held after it, motion in counts (one count is
/// one REL_X/REL_Y unit, as the JSON path's one point), and wheel notches (positive = scroll up).
public struct PointerInput: Sendable, Hashable, CustomStringConvertible {
    public var buttons: MouseButtons
    public var dx: Int
    public var dy: Int
    public var wheel: Int

    public init(buttons: MouseButtons, dx: Int = 0, dy: Int = 0, wheel: Int = 0) {
        self.buttons = buttons
        self.dx = dx
        self.dy = dy
        self.wheel = wheel
    }

    /// As a 6-byte report; motion beyond int16 or a wheel beyond ±127 is split over several.
    public func reports() -> [HIDReport] {
        var left = (dx: dx, dy: dy, wheel: wheel)
        var reports: [HIDReport] = []
        repeat {
            let report = HIDReport(buttons: buttons, dx: left.dx, dy: left.dy, wheel: left.wheel)
            left.dx -= Int(report.dx)
            left.dy -= Int(report.dy)
            left.wheel -= Int(report.wheel)
            reports.append(report)
        } while left != (0, 0, 0)
        return reports
    }

    public var description: String { "buttons 0x\(String(buttons.rawValue, radix: 16)) dx \(dx) dy \(dy) wheel \(wheel)" }
}

/// The connectivity layer's phone side (seeds/connectivity-layer.md, `sendInput(deltaX, deltaY, buttons, scroll)`):
/// turns the gesture model's commands into pointer reports. Buttons are state — a click is a report with the bit
/// set, then one without; a drag holds the bit — motion is whole counts with the fraction carried to the next
/// command, and a scroll is whole wheel notches, `pointsPerNotch` points of finger travel each (natural
/// scrolling, as the JSON path: fingers down scroll up).
///
/// What a report cannot say — keys, text, media, modes, pinch, three-finger gestures, a horizontal scroll — is
/// not translated (`translate` returns nil): the transport sends it on its control path.
public struct PointerTranslator: Sendable {
    /// Finger travel per wheel notch: the JSON path's scale (12 hi-res units per point, 120 per notch), so a
    /// scroll means the same on every transport.
    public static let pointsPerNotch = 10.0

    public private(set) var buttons: MouseButtons = []
    private var motion = (x: 0.0, y: 0.0)
    private var wheel = 0.0

    public init() {}

    /// Whether a command is movement: what the udp transport sends as best-effort packets.
    public static func isMovement(_ command: Command) -> Bool {
        switch command {
        case .cursorMove, .dragMove: true
        case .scroll(let dx, _): dx == 0
        default: false
        }
    }

    /// The reports for a command, in order (none when it moves less than a count); nil when a report cannot say it.
    public mutating func translate(_ command: Command) -> [PointerInput]? {
        switch command {
        case .cursorMove(let delta), .dragMove(let delta):
            motion.x += delta.x
            motion.y += delta.y
            let x = motion.x.rounded(), y = motion.y.rounded()
            motion.x -= x
            motion.y -= y
            return x == 0 && y == 0 ? [] : [PointerInput(buttons: buttons, dx: Int(x), dy: Int(y))]
        case .scroll(let dx, let dy):
            guard dx == 0 else { return nil }
            wheel += dy / Self.pointsPerNotch
            let notches = wheel.rounded(.towardZero)
            wheel -= notches
            return notches == 0 ? [] : [PointerInput(buttons: buttons, wheel: Int(notches))]
        case .tap(let type):
            var reports = set(.left, false)
            for _ in 0..<(type == .double ? 2 : 1) { reports += set(.left, true) + set(.left, false) }
            return reports
        case .rightClick:
            return set(.right, true) + set(.right, false)
        case .dragStart:
            return set(.left, true)
        case .dragEnd:
            return set(.left, false)
        default:
            return nil
        }
    }

    /// Keeps track of a command another path carried (the udp transport's control connection): its buttons.
    public mutating func carried(_ command: Command) {
        _ = translate(command)
    }

    /// A report with `button` pressed or released; none when it already is.
    private mutating func set(_ button: MouseButtons, _ pressed: Bool) -> [PointerInput] {
        guard buttons.contains(button) != pressed else { return [] }
        if pressed { buttons.insert(button) } else { buttons.remove(button) }
        return [PointerInput(buttons: buttons)]
    }
}
