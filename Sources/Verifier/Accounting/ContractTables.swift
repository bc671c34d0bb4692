package import InputCodes

/// docs/protocol.md ("What each command does on Linux", "Rounding and remainders") and docs/protocol-keys.md as the
/// accounting oracle's own tables: written from the documents, never taken from the computer's mapping
/// (`CommandMapping`), so a fault there does not move the oracle with it. `ContractTablesDocTests` reads both
/// documents and checks every row against these tables.
package enum ContractTables {
    /// The evdev key of each `keyPress` name (docs/protocol-keys.md, "Keys").
    package static let keys: [String: String] = {
        var keys: [String: String] = [:]
        for letter in "abcdefghijklmnopqrstuvwxyz" { keys[String(letter)] = "KEY_" + String(letter).uppercased() }
        for digit in 0...9 { keys[String(digit)] = "KEY_\(digit)" }
        for number in 1...12 { keys["f\(number)"] = "KEY_F\(number)" }
        let named: [String: String] = [
            "return": "KEY_ENTER", "escape": "KEY_ESC", "tab": "KEY_TAB", "space": "KEY_SPACE",
            "delete": "KEY_BACKSPACE", "forwardDelete": "KEY_DELETE", "left": "KEY_LEFT", "right": "KEY_RIGHT",
            "up": "KEY_UP", "down": "KEY_DOWN", "home": "KEY_HOME", "end": "KEY_END", "pageUp": "KEY_PAGEUP",
            "pageDown": "KEY_PAGEDOWN", "minus": "KEY_MINUS", "equal": "KEY_EQUAL", "leftBracket": "KEY_LEFTBRACE",
            "rightBracket": "KEY_RIGHTBRACE", "backslash": "KEY_BACKSLASH", "semicolon": "KEY_SEMICOLON",
            "quote": "KEY_APOSTROPHE", "grave": "KEY_GRAVE", "comma": "KEY_COMMA", "period": "KEY_DOT",
            "slash": "KEY_SLASH",
        ]
        keys.merge(named) { first, _ in first }
        return keys
    }()

    /// The evdev key of each modifier (docs/protocol-keys.md, "Modifiers").
    package static let modifiers: [String: String] = [
        "command": "KEY_LEFTMETA", "option": "KEY_LEFTALT", "control": "KEY_LEFTCTRL", "shift": "KEY_LEFTSHIFT",
    ]

    /// The key name and Shift of each character `text` types besides the letters (docs/protocol-keys.md, "Text").
    package static let symbols: [Character: (key: String, shift: Bool)] = {
        var table: [Character: (key: String, shift: Bool)] = [" ": ("space", false), "\n": ("return", false), "\t": ("tab", false)]
        let pairs: [(key: String, plain: Character, shifted: Character)] = [
            ("1", "1", "!"), ("2", "2", "@"), ("3", "3", "#"), ("4", "4", "$"), ("5", "5", "%"), ("6", "6", "^"),
            ("7", "7", "&"), ("8", "8", "*"), ("9", "9", "("), ("0", "0", ")"), ("minus", "-", "_"), ("equal", "=", "+"),
            ("leftBracket", "[", "{"), ("rightBracket", "]", "}"), ("backslash", "\\", "|"), ("semicolon", ";", ":"),
            ("quote", "'", "\""), ("grave", "`", "~"), ("comma", ",", "<"), ("period", ".", ">"), ("slash", "/", "?"),
        ]
        for pair in pairs {
            table[pair.plain] = (pair.key, false)
            table[pair.shifted] = (pair.key, true)
        }
        return table
    }()

    /// The key name and Shift that type `character` on a US layout; nil for a character `text` refuses.
    package static func stroke(_ character: Character) -> (key: String, shift: Bool)? {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first, ("a"..."z").contains(scalar) { return (String(character), false) }
        if scalars.count == 1, let scalar = scalars.first, ("A"..."Z").contains(scalar) {
            return (String(character).lowercased(), true)
        }
        return symbols[character]
    }

    /// ← / → by mode (R3.3–R3.6; media mode: previous / next track).
    package static func buttonChord(_ action: String, mode: String) -> [String]? {
        switch (mode, action) {
        case ("presentation", "back"): ["KEY_LEFT"]
        case ("presentation", "forward"): ["KEY_RIGHT"]
        case ("basicMouse", "back"): ["KEY_LEFTMETA", "KEY_LEFT"]
        case ("basicMouse", "forward"): ["KEY_ENTER"]
        case ("mediaControl", "back"): ["KEY_PREVIOUSSONG"]
        case ("mediaControl", "forward"): ["KEY_NEXTSONG"]
        default: nil
        }
    }

    /// The modes a `modeChange` names; a computer starts in basic mouse mode.
    package static let modes: Set<String> = ["presentation", "mediaControl", "basicMouse"]
    package static let initialMode = "basicMouse"

    package static let media: [String: String] = [
        "playPause": "KEY_PLAYPAUSE", "volumeUp": "KEY_VOLUMEUP", "volumeDown": "KEY_VOLUMEDOWN",
    ]

    package static let systemGestures: [String: [String]] = [
        "missionControl": ["KEY_LEFTMETA"], "appExpose": ["KEY_LEFTMETA", "KEY_A"],
        "spaceLeft": ["KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_LEFT"], "spaceRight": ["KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_RIGHT"],
    ]

    /// Scroll: hi-res units per point of travel (10 points are one notch).
    package static let hiResUnitsPerPoint = 12.0
    /// Hi-res units of one notch (`REL_WHEEL` ±1).
    package static let hiResUnitsPerNotch = 120
    /// Pinch: this zoom factor is one notch.
    package static let pinchScalePerNotch = 1.1

    /// The code of a kernel name these tables use.
    package static func code(_ name: String) -> EventCode {
        guard let code = EventCode(name: name) else { preconditionFailure("the accounting tables name \(name), which InputCodes does not know") }
        return code
    }
}
