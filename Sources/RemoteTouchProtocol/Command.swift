/// What the phone sends on the command characteristic.
///
/// The first six cases are the seed's `Command` (seeds/remotetouch-design.md, "Command Protocol"); the bytes
/// are what Apple's `JSONEncoder` writes for that enum with synthesized `Codable`:
/// `{"cursorMove":{"delta":[10,-5]}}`. The remaining cases are this project's extension for the gestures of
/// seeds/ipad-trackpad-design.md, encoded in the same style (docs/protocol.md lists every case's bytes).
public enum Command: Sendable, Hashable {
    // The seed's protocol.
    case cursorMove(delta: Point)
    case tap(type: ClickType)
    case button(action: ButtonAction)
    case modeChange(mode: ControlMode)
    case mediaControl(action: MediaAction)
    case pinch(scale: Double)

    // Extension: seeds/ipad-trackpad-design.md gestures.
    /// Two-finger scroll: finger movement in points (positive dy = fingers moved down).
    case scroll(dx: Double, dy: Double)
    case rightClick
    case dragStart
    case dragMove(delta: Point)
    case dragEnd
    case systemGesture(gesture: SystemGesture)
    case keyPress(key: Key, modifiers: [KeyModifier])
    case text(string: String)

    /// The case name, which is also the JSON key: `"cursorMove"`.
    public var name: String {
        switch self {
        case .cursorMove: "cursorMove"
        case .tap: "tap"
        case .button: "button"
        case .modeChange: "modeChange"
        case .mediaControl: "mediaControl"
        case .pinch: "pinch"
        case .scroll: "scroll"
        case .rightClick: "rightClick"
        case .dragStart: "dragStart"
        case .dragMove: "dragMove"
        case .dragEnd: "dragEnd"
        case .systemGesture: "systemGesture"
        case .keyPress: "keyPress"
        case .text: "text"
        }
    }

    /// Every case name, in declaration order.
    public static let caseNames = [
        "cursorMove", "tap", "button", "modeChange", "mediaControl", "pinch", "scroll", "rightClick",
        "dragStart", "dragMove", "dragEnd", "systemGesture", "keyPress", "text",
    ]
}

/// `CGPoint` as Apple encodes it: an `[x, y]` array of numbers.
public struct Point: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }
}

public enum ClickType: String, Sendable, Hashable, CaseIterable {
    case single
    case double
}

public enum ButtonAction: String, Sendable, Hashable, CaseIterable {
    case back
    case forward
}

public enum ControlMode: String, Sendable, Hashable, CaseIterable {
    case presentation
    case mediaControl
    case basicMouse
}

public enum MediaAction: String, Sendable, Hashable, CaseIterable {
    case playPause
    case volumeUp
    case volumeDown
}

/// Three-finger gestures of the iPad design, named after what they do on a Mac.
public enum SystemGesture: String, Sendable, Hashable, CaseIterable {
    case missionControl
    case appExpose
    /// Switch to the space on the left (three fingers swipe right, as on a Mac trackpad).
    case spaceLeft
    /// Switch to the space on the right (three fingers swipe left).
    case spaceRight
}

/// Modifier keys, with the Mac names the phone app uses.
public enum KeyModifier: String, Sendable, Hashable, CaseIterable {
    case command
    case option
    case control
    case shift
}

/// Keys a `keyPress` may name: the iPad design's keyboard (QWERTY, number row, function row, arrows).
public enum Key: String, Sendable, Hashable, CaseIterable {
    case a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z
    case digit0 = "0", digit1 = "1", digit2 = "2", digit3 = "3", digit4 = "4"
    case digit5 = "5", digit6 = "6", digit7 = "7", digit8 = "8", digit9 = "9"
    case `return`, escape, tab, space, delete, forwardDelete
    case left, right, up, down, home, end, pageUp, pageDown
    case f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12
    case minus, equal, leftBracket, rightBracket, backslash, semicolon, quote, grave, comma, period, slash
}
