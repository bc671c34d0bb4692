public import InputCodes
public import RemoteTouchProtocol
import Foundation

/// Turns commands into evdev frames, as the computer side does: mode-aware buttons, cursor and wheel motion
/// rounded to whole units with the remainder carried to the next command, and a record of what is held so a dropped link can
/// release it (`releaseAll()`).
public struct CommandMapper: Sendable {
    /// The current mode; the seed's macOS app starts in basic mouse mode.
    public private(set) var mode: ControlMode
    /// Keys and buttons pressed and not yet released (a drag's BTN_LEFT).
    public private(set) var held: [EventCode] = []

    private var cursorRemainder = (x: 0.0, y: 0.0)
    private var scroll = WheelAccumulator()
    private var zoom = WheelAccumulator()

    public init(mode: ControlMode = .basicMouse) {
        self.mode = mode
    }

    /// The frames for one command, in order. A command that cannot be mapped emits nothing.
    /// - Throws: `MappingError` for text with a character the US layout cannot type.
    public mutating func map(_ command: Command) throws(MappingError) -> [InputFrame] {
        switch command {
        case .cursorMove(let delta), .dragMove(let delta):
            return motion(delta)
        case .tap(let type):
            return endDrag() + click(.btnLeft) + (type == .double ? click(.btnLeft) : [])
        case .button(let action):
            return chord(MappingTable.buttonChord(action, in: mode))
        case .modeChange(let newMode):
            mode = newMode
            return []
        case .mediaControl(let action):
            return chord([MappingTable.mediaKey(action)])
        case .pinch(let scale):
            let units = MappingTable.hiResUnitsPerNotch
            let hiRes = Double(units) * log(scale) / log(MappingTable.pinchScalePerNotch)
            let (notches, fine) = zoom.add(vertical: hiRes, horizontal: 0)
            guard fine.vertical != 0 else { return [] }
            var wheel: [InputEvent] = []
            if notches.vertical != 0 { wheel.append(InputEvent(.relWheel, notches.vertical)) }
            wheel.append(InputEvent(.relWheelHiRes, fine.vertical))
            return [InputFrame([.press(.keyLeftCtrl)]), InputFrame(wheel), InputFrame([.release(.keyLeftCtrl)])]
        case .scroll(let dx, let dy):
            // Natural scrolling: content follows the fingers. Fingers down (dy > 0) scroll up (wheel +);
            // fingers left (dx < 0) scroll right (hwheel +).
            let (notches, fine) = scroll.add(
                vertical: dy * MappingTable.hiResUnitsPerPoint, horizontal: -dx * MappingTable.hiResUnitsPerPoint)
            var events: [InputEvent] = []
            if notches.vertical != 0 { events.append(InputEvent(.relWheel, notches.vertical)) }
            if fine.vertical != 0 { events.append(InputEvent(.relWheelHiRes, fine.vertical)) }
            if notches.horizontal != 0 { events.append(InputEvent(.relHWheel, notches.horizontal)) }
            if fine.horizontal != 0 { events.append(InputEvent(.relHWheelHiRes, fine.horizontal)) }
            return events.isEmpty ? [] : [InputFrame(events)]
        case .rightClick:
            return click(.btnRight)
        case .dragStart:
            guard !held.contains(.btnLeft) else { return [] }
            held.append(.btnLeft)
            return [InputFrame([.press(.btnLeft)])]
        case .dragEnd:
            return endDrag()
        case .systemGesture(let gesture):
            return chord(MappingTable.systemGestureChord(gesture))
        case .keyPress(let key, let modifiers):
            return chord(modifiers.map(MappingTable.modifierKey) + [MappingTable.keyCode(key)])
        case .text(let string):
            var strokes: [(key: Key, shift: Bool)] = []
            for (index, character) in string.enumerated() {
                guard let stroke = MappingTable.usLayout(character) else {
                    let scalars = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
                    throw MappingError(
                        "text character \(index) \"\(character)\" (\(scalars.joined(separator: " "))) cannot be typed on a US keyboard layout; nothing was typed")
                }
                strokes.append(stroke)
            }
            return strokes.flatMap { stroke in
                chord((stroke.shift ? [.keyLeftShift] : []) + [MappingTable.keyCode(stroke.key)])
            }
        }
    }

    /// The frame for one pointer report (the hid and udp transports): button changes against what is held, motion
    /// in counts, whole wheel notches (REL_WHEEL with its REL_WHEEL_HI_RES, 120 per notch, as a HID mouse's
    /// driver emits them); one frame, or none when nothing changes. `buttons: false` leaves the buttons as they are
    /// (a udp movement packet: its buttons byte is informational, buttons come over the control connection).
    public mutating func pointer(_ input: PointerInput, buttons: Bool = true) -> [InputFrame] {
        var events: [InputEvent] = []
        if buttons {
            for (bit, code) in [(MouseButtons.left, EventCode.btnLeft), (.right, .btnRight), (.middle, .btnMiddle)] {
                let wanted = input.buttons.contains(bit)
                guard held.contains(code) != wanted else { continue }
                if wanted { held.append(code) } else { held.removeAll { $0 == code } }
                events.append(wanted ? .press(code) : .release(code))
            }
        }
        if input.dx != 0 { events.append(InputEvent(.relX, Int32(input.dx))) }
        if input.dy != 0 { events.append(InputEvent(.relY, Int32(input.dy))) }
        if input.wheel != 0 {
            events.append(InputEvent(.relWheel, Int32(input.wheel)))
            events.append(InputEvent(.relWheelHiRes, Int32(input.wheel * MappingTable.hiResUnitsPerNotch)))
        }
        return events.isEmpty ? [] : [InputFrame(events)]
    }

    /// Releases every held key and button (the link dropped, or the central disconnected).
    public mutating func releaseAll() -> [InputFrame] {
        defer { held.removeAll() }
        return held.reversed().map { InputFrame([.release($0)]) }
    }

    private mutating func motion(_ delta: Point) -> [InputFrame] {
        cursorRemainder.x += delta.x
        cursorRemainder.y += delta.y
        let x = cursorRemainder.x.rounded()
        let y = cursorRemainder.y.rounded()
        cursorRemainder.x -= x
        cursorRemainder.y -= y
        var events: [InputEvent] = []
        if x != 0 { events.append(InputEvent(.relX, Int32(x))) }
        if y != 0 { events.append(InputEvent(.relY, Int32(y))) }
        return events.isEmpty ? [] : [InputFrame(events)]
    }

    private mutating func endDrag() -> [InputFrame] {
        guard let index = held.firstIndex(of: .btnLeft) else { return [] }
        held.remove(at: index)
        return [InputFrame([.release(.btnLeft)])]
    }

    private func click(_ button: EventCode) -> [InputFrame] {
        [InputFrame([.press(button)]), InputFrame([.release(button)])]
    }

    private func chord(_ keys: [EventCode]) -> [InputFrame] {
        keys.map { InputFrame([.press($0)]) } + keys.reversed().map { InputFrame([.release($0)]) }
    }
}

/// Hi-res wheel units with their sub-unit remainder, and the legacy notches they add up to
/// (one REL_WHEEL per 120 REL_WHEEL_HI_RES, as the kernel's HID drivers emit them).
private struct WheelAccumulator: Sendable {
    private var fraction = (vertical: 0.0, horizontal: 0.0)
    private var partialNotch = (vertical: 0, horizontal: 0)

    mutating func add(vertical: Double, horizontal: Double)
        -> (notches: (vertical: Int32, horizontal: Int32), fine: (vertical: Int32, horizontal: Int32))
    {
        fraction.vertical += vertical
        fraction.horizontal += horizontal
        let fineV = fraction.vertical.rounded()
        let fineH = fraction.horizontal.rounded()
        fraction.vertical -= fineV
        fraction.horizontal -= fineH
        partialNotch.vertical += Int(fineV)
        partialNotch.horizontal += Int(fineH)
        let perNotch = MappingTable.hiResUnitsPerNotch
        let notchV = partialNotch.vertical / perNotch
        let notchH = partialNotch.horizontal / perNotch
        partialNotch.vertical -= notchV * perNotch
        partialNotch.horizontal -= notchH * perNotch
        return ((Int32(notchV), Int32(notchH)), (Int32(fineV), Int32(fineH)))
    }
}
