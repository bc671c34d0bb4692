import CommandMapping
import InputCodes
import RemoteTouchProtocol
import Testing

private func frames(_ events: [InputEvent]...) -> [InputFrame] { events.map(InputFrame.init) }
private func key(_ name: String) -> EventCode { EventCode(name: name)! }

/// press each key in order, release in reverse, one key per frame
private func chord(_ names: String...) -> [InputFrame] {
    names.map { InputFrame([.press(key($0))]) } + names.reversed().map { InputFrame([.release(key($0))]) }
}

private func map(_ command: Command, in mode: ControlMode = .basicMouse) throws(MappingError) -> [InputFrame] {
    var mapper = CommandMapper(mode: mode)
    return try mapper.map(command)
}

@Suite("Computer-side mapping: one test per table row")
struct CommandMapperTests {
    @Test("cursorMove → REL_X, REL_Y in one frame (R1.2)", arguments: ControlMode.allCases)
    func cursor(mode: ControlMode) throws {
        #expect(try map(.cursorMove(delta: Point(x: 10, y: -5)), in: mode) == frames([InputEvent(.relX, 10), InputEvent(.relY, -5)]))
        #expect(try map(.cursorMove(delta: Point(x: 0, y: 7))) == frames([InputEvent(.relY, 7)]))
        #expect(try map(.cursorMove(delta: Point(x: 0, y: 0))) == [])
    }

    @Test("fractional deltas are carried between commands")
    func cursorRemainder() throws {
        var mapper = CommandMapper()
        var total: Int32 = 0
        for _ in 0..<10 {
            for frame in try mapper.map(.cursorMove(delta: Point(x: 0.3, y: -0.3))) {
                for event in frame.events where event.code == .relX { total += event.value }
            }
        }
        #expect(total == 3)
    }

    @Test("tap single → BTN_LEFT press, release; double → twice (R2.2, R2.4)")
    func taps() throws {
        let click = frames([.press(.btnLeft)], [.release(.btnLeft)])
        #expect(try map(.tap(type: .single)) == click)
        #expect(try map(.tap(type: .double)) == click + click)
    }

    @Test(
        "← / → by mode (R3.3-R3.6, media: previous / next track)",
        arguments: [
            (ControlMode.presentation, ButtonAction.back, ["KEY_LEFT"]),
            (.presentation, .forward, ["KEY_RIGHT"]),
            (.basicMouse, .back, ["KEY_LEFTMETA", "KEY_LEFT"]),
            (.basicMouse, .forward, ["KEY_ENTER"]),
            (.mediaControl, .back, ["KEY_PREVIOUSSONG"]),
            (.mediaControl, .forward, ["KEY_NEXTSONG"]),
        ])
    func buttons(mode: ControlMode, action: ButtonAction, keys: [String]) throws {
        let expected = keys.map { InputFrame([.press(key($0))]) } + keys.reversed().map { InputFrame([.release(key($0))]) }
        #expect(try map(.button(action: action), in: mode) == expected)
    }

    @Test("modeChange emits nothing and re-maps later buttons (R7.5)")
    func modeChange() throws {
        var mapper = CommandMapper(mode: .basicMouse)
        #expect(try mapper.map(.modeChange(mode: .presentation)) == [])
        #expect(mapper.mode == .presentation)
        #expect(try mapper.map(.button(action: .forward)) == chord("KEY_RIGHT"))
    }

    @Test("media keys (R9.4, R9.5)", arguments: [
        (MediaAction.playPause, "KEY_PLAYPAUSE"), (.volumeUp, "KEY_VOLUMEUP"), (.volumeDown, "KEY_VOLUMEDOWN"),
    ])
    func media(action: MediaAction, name: String) throws {
        for mode in ControlMode.allCases {
            #expect(try map(.mediaControl(action: action), in: mode) == chord(name))
        }
    }

    @Test("scroll: natural direction, 12 hi-res units per point, a notch per 120")
    func scroll() throws {
        // Fingers down 10 pt: one notch up.
        #expect(try map(.scroll(dx: 0, dy: 10)) == frames([InputEvent(.relWheel, 1), InputEvent(.relWheelHiRes, 120)]))
        // Fingers left 5 pt: half a notch right, hi-res only.
        #expect(try map(.scroll(dx: -5, dy: 0)) == frames([InputEvent(.relHWheelHiRes, 60)]))
        // Both axes at once.
        #expect(try map(.scroll(dx: 20, dy: -20)) == frames([
            InputEvent(.relWheel, -2), InputEvent(.relWheelHiRes, -240),
            InputEvent(.relHWheel, -2), InputEvent(.relHWheelHiRes, -240),
        ]))
    }

    @Test("legacy wheel notches accumulate across small scrolls")
    func scrollNotches() throws {
        var mapper = CommandMapper()
        var notches: Int32 = 0
        var hiRes: Int32 = 0
        for _ in 0..<25 {
            for event in try mapper.map(.scroll(dx: 0, dy: 2)).flatMap(\.events) {
                if event.code == .relWheel { notches += event.value }
                if event.code == .relWheelHiRes { hiRes += event.value }
            }
        }
        #expect(hiRes == 600)
        #expect(notches == 5)
    }

    @Test("scroll remainders carry across commands: the hi-res fraction, and the notch once 120 units add up")
    func scrollRemainders() throws {
        var mapper = CommandMapper()
        // 0.05 pt is 0.6 hi-res units: 1, then 0.2 (nothing), then 1 again.
        #expect(try mapper.map(.scroll(dx: 0, dy: 0.05)) == frames([InputEvent(.relWheelHiRes, 1)]))
        #expect(try mapper.map(.scroll(dx: 0, dy: 0.05)) == [])
        #expect(try mapper.map(.scroll(dx: 0, dy: 0.05)) == frames([InputEvent(.relWheelHiRes, 1)]))
        // 118.8 − 0.2 carried is 119; with the 2 before, 121: a notch, though this command brought less than 120.
        #expect(try mapper.map(.scroll(dx: 0, dy: 9.9)) == frames([InputEvent(.relWheel, 1), InputEvent(.relWheelHiRes, 119)]))
        // A mode change, and the other axis, leave the vertical remainders alone: 118.8 − 0.4 is 118 (0.4 carried;
        // 1 + 118 = 119, no notch), then 1.2 + 0.4 is 2, and with it the 120th unit: a notch.
        _ = try mapper.map(.modeChange(mode: .presentation))
        #expect(try mapper.map(.scroll(dx: -10, dy: 0)) == frames([InputEvent(.relHWheel, 1), InputEvent(.relHWheelHiRes, 120)]))
        #expect(try mapper.map(.scroll(dx: 0, dy: 9.9)) == frames([InputEvent(.relWheelHiRes, 118)]))
        #expect(try mapper.map(.scroll(dx: 0, dy: 0.1)) == frames([InputEvent(.relWheel, 1), InputEvent(.relWheelHiRes, 2)]))
    }

    @Test("pinch: 120·ln(scale)/ln(1.1) rounded to the nearest unit, the fraction and the partial notch carried to the next pinch")
    func pinchRounding() throws {
        var mapper = CommandMapper()
        // 0.5 is −872.705 units: −873 (−7 notches, −33 left), 0.295 carried; the next 0.5 is −872.41: −872, and
        // −33 − 872 is −905: −7 notches again.
        let ctrl = { (wheel: [InputEvent]) in frames([.press(.keyLeftCtrl)], wheel, [.release(.keyLeftCtrl)]) }
        #expect(try mapper.map(.pinch(scale: 0.5)) == ctrl([InputEvent(.relWheel, -7), InputEvent(.relWheelHiRes, -873)]))
        #expect(try mapper.map(.pinch(scale: 0.5)) == ctrl([InputEvent(.relWheel, -7), InputEvent(.relWheelHiRes, -872)]))
        // 0.95 is −64.58 units, −64.99 with the −0.41 carried: −65, and −65 − 65 is −130: a notch, though this pinch
        // brought less than 120.
        #expect(try mapper.map(.pinch(scale: 0.95)) == ctrl([InputEvent(.relWheel, -1), InputEvent(.relWheelHiRes, -65)]))
    }

    @Test("rightClick → BTN_RIGHT press, release")
    func rightClick() throws {
        #expect(try map(.rightClick) == frames([.press(.btnRight)], [.release(.btnRight)]))
    }

    @Test("drag holds BTN_LEFT across moves and releases it at the end")
    func drag() throws {
        var mapper = CommandMapper()
        #expect(try mapper.map(.dragStart) == frames([.press(.btnLeft)]))
        #expect(mapper.held == [.btnLeft])
        #expect(try mapper.map(.dragStart) == [])
        #expect(try mapper.map(.dragMove(delta: Point(x: 4, y: 2))) == frames([InputEvent(.relX, 4), InputEvent(.relY, 2)]))
        #expect(try mapper.map(.dragEnd) == frames([.release(.btnLeft)]))
        #expect(mapper.held.isEmpty)
        #expect(try mapper.map(.dragEnd) == [])
    }

    @Test("a tap during a drag ends the drag first, so the kernel sees a real click")
    func tapDuringDrag() throws {
        var mapper = CommandMapper()
        _ = try mapper.map(.dragStart)
        #expect(try mapper.map(.tap(type: .single)) == frames([.release(.btnLeft)], [.press(.btnLeft)], [.release(.btnLeft)]))
        #expect(mapper.held.isEmpty)
    }

    @Test("releaseAll lets go of everything held (link dropped)")
    func releaseAll() throws {
        var mapper = CommandMapper()
        #expect(mapper.releaseAll() == [])
        _ = try mapper.map(.dragStart)
        #expect(mapper.releaseAll() == frames([.release(.btnLeft)]))
        #expect(mapper.releaseAll() == [])
    }

    @Test("pinch → Ctrl held around the wheel: out is down, in is up")
    func pinch() throws {
        #expect(try map(.pinch(scale: 1.1)) == frames(
            [.press(.keyLeftCtrl)], [InputEvent(.relWheel, 1), InputEvent(.relWheelHiRes, 120)], [.release(.keyLeftCtrl)]))
        #expect(try map(.pinch(scale: 1 / 1.1)) == frames(
            [.press(.keyLeftCtrl)], [InputEvent(.relWheel, -1), InputEvent(.relWheelHiRes, -120)], [.release(.keyLeftCtrl)]))
        #expect(try map(.pinch(scale: 1.0001)) == [])
    }

    @Test("system gestures → desktop shortcuts", arguments: [
        (SystemGesture.missionControl, ["KEY_LEFTMETA"]), (.appExpose, ["KEY_LEFTMETA", "KEY_A"]),
        (.spaceLeft, ["KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_LEFT"]), (.spaceRight, ["KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_RIGHT"]),
    ])
    func systemGestures(gesture: SystemGesture, keys: [String]) throws {
        let expected = keys.map { InputFrame([.press(key($0))]) } + keys.reversed().map { InputFrame([.release(key($0))]) }
        #expect(try map(.systemGesture(gesture: gesture)) == expected)
    }

    @Test("keyPress: modifiers in order, the key, released in reverse")
    func keyPress() throws {
        #expect(try map(.keyPress(key: .c, modifiers: [.command])) == chord("KEY_LEFTMETA", "KEY_C"))
        #expect(try map(.keyPress(key: .tab, modifiers: [.control, .option, .shift])) ==
            chord("KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_LEFTSHIFT", "KEY_TAB"))
        #expect(try map(.keyPress(key: .f12, modifiers: [])) == chord("KEY_F12"))
    }

    @Test("every protocol key has an evdev code", arguments: Key.allCases)
    func everyKey(key: Key) throws {
        let code = MappingTable.keyCode(key)
        #expect(code.type == .key)
        #expect(code.name != nil)
    }

    @Test("text is typed on a US layout, Shift where needed")
    func text() throws {
        #expect(try map(.text(string: "aB!")) == chord("KEY_A") + chord("KEY_LEFTSHIFT", "KEY_B") + chord("KEY_LEFTSHIFT", "KEY_1"))
        #expect(try map(.text(string: "a b\n")) == chord("KEY_A") + chord("KEY_SPACE") + chord("KEY_B") + chord("KEY_ENTER"))
    }

    @Test("every printable ASCII character can be typed")
    func printableASCII() throws {
        for value in 0x20...0x7E {
            let character = Character(Unicode.Scalar(UInt8(value)))
            #expect(MappingTable.usLayout(character) != nil, "\(character)")
        }
    }

    @Test("text with a character a US keyboard cannot type is refused whole")
    func untypable() {
        #expect(throws: MappingError.self) { try map(.text(string: "café")) }
        do {
            _ = try map(.text(string: "ok😀"))
            Issue.record("typed an emoji")
        } catch {
            #expect(error.message.contains("text character 2 \"😀\" (U+1F600)"))
        }
    }
}
