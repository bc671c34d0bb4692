/// An evdev event code with its type: `KEY_RIGHT`, `REL_X`, `BTN_LEFT`.
///
/// The table holds the codes RemoteTouch emits and scenarios name. Its numbers are kernel ABI
/// (linux/input-event-codes.h); a test checks every name and number against libevdev's own table.
public struct EventCode: Sendable, Hashable, CustomStringConvertible {
    public let type: EventType
    public let code: UInt16

    public init(_ type: EventType, _ code: UInt16) {
        self.type = type
        self.code = code
    }

    /// `KEY_RIGHT`, or `EV_KEY:0x1ff` for a code outside the table.
    public var description: String {
        EventCode.names[self] ?? "\(type):0x\(String(code, radix: 16))"
    }

    public var name: String? { EventCode.names[self] }

    /// Looks a code up by its kernel name (`"KEY_RIGHT"`, `"REL_WHEEL_HI_RES"`).
    public init?(name: String) {
        guard let code = EventCode.byName[name] else { return nil }
        self = code
    }

    public static let allKnown: [EventCode] = table.map(\.code)

    static let names: [EventCode: String] = Dictionary(uniqueKeysWithValues: table.map { ($0.code, $0.name) })
    static let byName: [String: EventCode] = Dictionary(uniqueKeysWithValues: table.map { ($0.name, $0.code) })
}

extension EventCode {
    // Synchronization.
    public static let synReport = EventCode(.syn, 0)
    public static let synDropped = EventCode(.syn, 3)

    // Relative axes.
    public static let relX = EventCode(.rel, 0x00)
    public static let relY = EventCode(.rel, 0x01)
    public static let relHWheel = EventCode(.rel, 0x06)
    public static let relWheel = EventCode(.rel, 0x08)
    public static let relWheelHiRes = EventCode(.rel, 0x0b)
    public static let relHWheelHiRes = EventCode(.rel, 0x0c)

    // Mouse buttons.
    public static let btnLeft = EventCode(.key, 0x110)
    public static let btnRight = EventCode(.key, 0x111)
    public static let btnMiddle = EventCode(.key, 0x112)

    // Keys used by name in the mapping table.
    public static let keyEsc = EventCode(.key, 1)
    public static let keyBackspace = EventCode(.key, 14)
    public static let keyTab = EventCode(.key, 15)
    public static let keyEnter = EventCode(.key, 28)
    public static let keyLeftCtrl = EventCode(.key, 29)
    public static let keyLeftShift = EventCode(.key, 42)
    public static let keyLeftAlt = EventCode(.key, 56)
    public static let keySpace = EventCode(.key, 57)
    public static let keyA = EventCode(.key, 30)
    public static let keyHome = EventCode(.key, 102)
    public static let keyUp = EventCode(.key, 103)
    public static let keyPageUp = EventCode(.key, 104)
    public static let keyLeft = EventCode(.key, 105)
    public static let keyRight = EventCode(.key, 106)
    public static let keyEnd = EventCode(.key, 107)
    public static let keyDown = EventCode(.key, 108)
    public static let keyPageDown = EventCode(.key, 109)
    public static let keyDelete = EventCode(.key, 111)
    public static let keyVolumeDown = EventCode(.key, 114)
    public static let keyVolumeUp = EventCode(.key, 115)
    public static let keyLeftMeta = EventCode(.key, 125)
    public static let keyNextSong = EventCode(.key, 163)
    public static let keyPlayPause = EventCode(.key, 164)
    public static let keyPreviousSong = EventCode(.key, 165)
}

private let table: [(name: String, code: EventCode)] = {
    var rows: [(String, EventCode)] = [
        ("SYN_REPORT", .synReport), ("SYN_DROPPED", .synDropped),
        ("REL_X", .relX), ("REL_Y", .relY), ("REL_HWHEEL", .relHWheel), ("REL_WHEEL", .relWheel),
        ("REL_WHEEL_HI_RES", .relWheelHiRes), ("REL_HWHEEL_HI_RES", .relHWheelHiRes),
        ("BTN_LEFT", .btnLeft), ("BTN_RIGHT", .btnRight), ("BTN_MIDDLE", .btnMiddle),
    ]
    let keys: [(String, UInt16)] = [
        ("KEY_ESC", 1), ("KEY_1", 2), ("KEY_2", 3), ("KEY_3", 4), ("KEY_4", 5), ("KEY_5", 6), ("KEY_6", 7),
        ("KEY_7", 8), ("KEY_8", 9), ("KEY_9", 10), ("KEY_0", 11), ("KEY_MINUS", 12), ("KEY_EQUAL", 13),
        ("KEY_BACKSPACE", 14), ("KEY_TAB", 15), ("KEY_Q", 16), ("KEY_W", 17), ("KEY_E", 18), ("KEY_R", 19),
        ("KEY_T", 20), ("KEY_Y", 21), ("KEY_U", 22), ("KEY_I", 23), ("KEY_O", 24), ("KEY_P", 25),
        ("KEY_LEFTBRACE", 26), ("KEY_RIGHTBRACE", 27), ("KEY_ENTER", 28), ("KEY_LEFTCTRL", 29), ("KEY_A", 30),
        ("KEY_S", 31), ("KEY_D", 32), ("KEY_F", 33), ("KEY_G", 34), ("KEY_H", 35), ("KEY_J", 36), ("KEY_K", 37),
        ("KEY_L", 38), ("KEY_SEMICOLON", 39), ("KEY_APOSTROPHE", 40), ("KEY_GRAVE", 41), ("KEY_LEFTSHIFT", 42),
        ("KEY_BACKSLASH", 43), ("KEY_Z", 44), ("KEY_X", 45), ("KEY_C", 46), ("KEY_V", 47), ("KEY_B", 48),
        ("KEY_N", 49), ("KEY_M", 50), ("KEY_COMMA", 51), ("KEY_DOT", 52), ("KEY_SLASH", 53),
        ("KEY_RIGHTSHIFT", 54), ("KEY_LEFTALT", 56), ("KEY_SPACE", 57), ("KEY_CAPSLOCK", 58), ("KEY_F1", 59),
        ("KEY_F2", 60), ("KEY_F3", 61), ("KEY_F4", 62), ("KEY_F5", 63), ("KEY_F6", 64), ("KEY_F7", 65),
        ("KEY_F8", 66), ("KEY_F9", 67), ("KEY_F10", 68), ("KEY_F11", 87), ("KEY_F12", 88), ("KEY_RIGHTCTRL", 97),
        ("KEY_RIGHTALT", 100), ("KEY_HOME", 102), ("KEY_UP", 103), ("KEY_PAGEUP", 104), ("KEY_LEFT", 105),
        ("KEY_RIGHT", 106), ("KEY_END", 107), ("KEY_DOWN", 108), ("KEY_PAGEDOWN", 109), ("KEY_INSERT", 110),
        ("KEY_DELETE", 111), ("KEY_MUTE", 113), ("KEY_VOLUMEDOWN", 114), ("KEY_VOLUMEUP", 115),
        ("KEY_LEFTMETA", 125), ("KEY_RIGHTMETA", 126), ("KEY_NEXTSONG", 163), ("KEY_PLAYPAUSE", 164),
        ("KEY_PREVIOUSSONG", 165),
    ]
    rows += keys.map { ($0.0, EventCode(.key, $0.1)) }
    return rows.map { (name: $0.0, code: $0.1) }
}()
