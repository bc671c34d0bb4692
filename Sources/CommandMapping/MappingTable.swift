public import InputCodes
public import RemoteTouchProtocol

/// What each command becomes on Linux, in evdev terms — the table to check against the seeds.
///
/// | command | mode | evdev | seed |
/// |---|---|---|---|
/// | cursorMove(dx, dy) | any | REL_X dx, REL_Y dy (one frame; sub-unit remainders carried) | R1.2 |
/// | tap single / double | any | BTN_LEFT 1, BTN_LEFT 0 (twice for double) | R2.2, R2.4 |
/// | button back | presentation | KEY_LEFT | R3.3 |
/// | button forward | presentation | KEY_RIGHT | R3.4 |
/// | button back | basicMouse | KEY_LEFTMETA + KEY_LEFT (Cmd ≙ Meta) | R3.5 |
/// | button forward | basicMouse | KEY_ENTER | R3.6 |
/// | button back / forward | mediaControl | KEY_PREVIOUSSONG / KEY_NEXTSONG | (ours) |
/// | mediaControl playPause / volumeUp / volumeDown | any | KEY_PLAYPAUSE / KEY_VOLUMEUP / KEY_VOLUMEDOWN | R9.4, R9.5 |
/// | modeChange(mode) | any | nothing; later buttons use the new mode | R7.5 |
/// | scroll(dx, dy) | any | REL_WHEEL_HI_RES 12·dy, REL_HWHEEL_HI_RES −12·dx, REL_WHEEL / REL_HWHEEL per 120 | iPad |
/// | rightClick | any | BTN_RIGHT 1, BTN_RIGHT 0 | iPad |
/// | dragStart / dragMove / dragEnd | any | BTN_LEFT 1 / REL_X, REL_Y / BTN_LEFT 0 | iPad |
/// | pinch(scale) | any | KEY_LEFTCTRL held around REL_WHEEL_HI_RES 120·log(scale)/log(1.1) | (ours) |
/// | systemGesture | any | see `systemGestureChords` | iPad |
/// | keyPress(key, modifiers) | any | modifiers pressed in order, key, released in reverse | iPad |
/// | text(string) | any | per character, US layout, KEY_LEFTSHIFT where needed | iPad |
///
/// Key chords are emitted one key per frame: each press in order, then each release in reverse order,
/// as a real keyboard reports them.
public enum MappingTable {
    /// ← / → by mode (R3; media mode is our addition: previous / next track).
    public static func buttonChord(_ action: ButtonAction, in mode: ControlMode) -> [EventCode] {
        switch (mode, action) {
        case (.presentation, .back): [.keyLeft]
        case (.presentation, .forward): [.keyRight]
        case (.basicMouse, .back): [.keyLeftMeta, .keyLeft]
        case (.basicMouse, .forward): [.keyEnter]
        case (.mediaControl, .back): [.keyPreviousSong]
        case (.mediaControl, .forward): [.keyNextSong]
        }
    }

    /// Media keys (R9).
    public static func mediaKey(_ action: MediaAction) -> EventCode {
        switch action {
        case .playPause: .keyPlayPause
        case .volumeUp: .keyVolumeUp
        case .volumeDown: .keyVolumeDown
        }
    }

    /// Three-finger gestures as the GNOME/KDE shortcuts closest to the Mac's: Super opens the overview
    /// (Mission Control), Super+A the application grid (App Exposé), Ctrl+Alt+←/→ switch workspaces.
    public static func systemGestureChord(_ gesture: SystemGesture) -> [EventCode] {
        switch gesture {
        case .missionControl: [.keyLeftMeta]
        case .appExpose: [.keyLeftMeta, .keyA]
        case .spaceLeft: [.keyLeftCtrl, .keyLeftAlt, .keyLeft]
        case .spaceRight: [.keyLeftCtrl, .keyLeftAlt, .keyRight]
        }
    }

    /// Mac modifier names on Linux: Command ≙ Meta (Super), Option ≙ Alt.
    public static func modifierKey(_ modifier: KeyModifier) -> EventCode {
        switch modifier {
        case .command: .keyLeftMeta
        case .option: .keyLeftAlt
        case .control: .keyLeftCtrl
        case .shift: .keyLeftShift
        }
    }

    /// Hi-res wheel units per point of two-finger travel: 10 pt is one notch (120 units).
    public static let hiResUnitsPerPoint: Double = 12
    /// Hi-res units of one wheel notch (the kernel's convention for REL_*_HI_RES).
    public static let hiResUnitsPerNotch = 120
    /// A pinch changing the scale by this factor is one Ctrl+wheel notch.
    public static let pinchScalePerNotch: Double = 1.1

    /// The evdev key of each `Key` the protocol allows.
    public static func keyCode(_ key: Key) -> EventCode {
        let name: String
        switch key {
        case .digit0, .digit1, .digit2, .digit3, .digit4, .digit5, .digit6, .digit7, .digit8, .digit9:
            name = "KEY_" + key.rawValue
        case .return: name = "KEY_ENTER"
        case .escape: name = "KEY_ESC"
        case .delete: name = "KEY_BACKSPACE"
        case .forwardDelete: name = "KEY_DELETE"
        case .pageUp: name = "KEY_PAGEUP"
        case .pageDown: name = "KEY_PAGEDOWN"
        case .equal: name = "KEY_EQUAL"
        case .leftBracket: name = "KEY_LEFTBRACE"
        case .rightBracket: name = "KEY_RIGHTBRACE"
        case .quote: name = "KEY_APOSTROPHE"
        case .period: name = "KEY_DOT"
        default: name = "KEY_" + key.rawValue.uppercased()
        }
        guard let code = EventCode(name: name) else {
            preconditionFailure("mapping table names \(name) for key \(key.rawValue), which EventCode does not know")
        }
        return code
    }

    /// The key (and whether Shift is needed) that types `character` on a US keyboard, or nil.
    public static func usLayout(_ character: Character) -> (key: Key, shift: Bool)? {
        if let letter = character.unicodeScalars.first, character.unicodeScalars.count == 1, letter.isASCII {
            let lower = Character(String(letter).lowercased())
            if lower.isLetter, let key = Key(rawValue: String(lower)) {
                return (key, character != lower)
            }
        }
        if let key = Key(rawValue: String(character)), character.isNumber { return (key, false) }
        return usSymbols[character]
    }

    private static let usSymbols: [Character: (key: Key, shift: Bool)] = [
        " ": (.space, false), "\n": (.return, false), "\t": (.tab, false),
        "-": (.minus, false), "_": (.minus, true), "=": (.equal, false), "+": (.equal, true),
        "[": (.leftBracket, false), "{": (.leftBracket, true), "]": (.rightBracket, false), "}": (.rightBracket, true),
        "\\": (.backslash, false), "|": (.backslash, true), ";": (.semicolon, false), ":": (.semicolon, true),
        "'": (.quote, false), "\"": (.quote, true), "`": (.grave, false), "~": (.grave, true),
        ",": (.comma, false), "<": (.comma, true), ".": (.period, false), ">": (.period, true),
        "/": (.slash, false), "?": (.slash, true),
        "!": (.digit1, true), "@": (.digit2, true), "#": (.digit3, true), "$": (.digit4, true),
        "%": (.digit5, true), "^": (.digit6, true), "&": (.digit7, true), "*": (.digit8, true),
        "(": (.digit9, true), ")": (.digit0, true),
    ]
}
