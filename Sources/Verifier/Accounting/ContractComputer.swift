import Foundation
package import InputCodes

/// The computer docs/protocol.md describes, as the accounting oracle's model: what each write it took must put on
/// the input device ("What each command does on Linux", "Rounding and remainders", "The hid transport", "The udp
/// transport"). Its state is the document's: the mode (basic mouse at the start), what is held, the pointer's
/// remainders, scroll's and pinch's hi-res fractions and partial notches. Frames come out as the computer writes
/// them; `KernelView` then drops what the input core would not pass on.
package struct ContractComputer: Sendable {
    package private(set) var mode = ContractTables.initialMode
    /// What a drag or a hid report holds, in the order pressed.
    package private(set) var held: [EventCode] = []
    private var pointer = (x: 0.0, y: 0.0)
    private var scroll = HiResWheel()
    private var zoom = HiResWheel()

    package init() {}

    /// Whether the document says the computer takes `payload` (a text with a character a US layout has not is refused).
    package static func accepts(_ payload: ContractPayload) -> Bool {
        if case .command(.text(let string)) = payload { return string.allSatisfy { ContractTables.stroke($0) != nil } }
        return true
    }

    /// The frames `payload` must produce, as written (before the kernel's filtering).
    package mutating func frames(for payload: ContractPayload) -> [[InputEvent]] {
        switch payload {
        case .command(let command): frames(for: command)
        case .report(let buttons, let dx, let dy, let wheel): pointerFrame(buttons: buttons, dx: dx, dy: dy, wheel: wheel)
        case .packet(let dx, let dy, let wheel): pointerFrame(buttons: nil, dx: dx, dy: dy, wheel: wheel)
        }
    }

    /// The link went, or the session ended: everything held is released, the last pressed first.
    package mutating func releaseAll() -> [[InputEvent]] {
        defer { held.removeAll() }
        return held.reversed().map { [.release($0)] }
    }

    private mutating func frames(for command: ContractCommand) -> [[InputEvent]] {
        switch command {
        case .move(let dx, let dy):
            pointer.x += dx
            pointer.y += dy
            let (x, y) = (pointer.x.rounded(), pointer.y.rounded())
            pointer.x -= x
            pointer.y -= y
            return nonEmpty([InputEvent(.relX, Int32(x)), InputEvent(.relY, Int32(y))].filter { $0.value != 0 })
        case .tap(let double):
            return endDrag() + click(.btnLeft) + (double ? click(.btnLeft) : [])
        case .button(let action):
            return chord(ContractTables.buttonChord(action, mode: mode) ?? [])
        case .modeChange(let mode):
            self.mode = mode
            return []
        case .media(let action):
            return chord(ContractTables.media[action].map { [$0] } ?? [])
        case .pinch(let scale):
            let (notches, fine) = zoom.add(Double(ContractTables.hiResUnitsPerNotch) * log(scale) / log(ContractTables.pinchScalePerNotch), 0)
            guard fine.vertical != 0 else { return [] }
            let wheel = (notches.vertical != 0 ? [InputEvent(.relWheel, notches.vertical)] : []) + [InputEvent(.relWheelHiRes, fine.vertical)]
            return [[.press(.keyLeftCtrl)], wheel, [.release(.keyLeftCtrl)]]
        case .scroll(let dx, let dy):
            let (notches, fine) = scroll.add(dy * ContractTables.hiResUnitsPerPoint, -dx * ContractTables.hiResUnitsPerPoint)
            let events = [InputEvent(.relWheel, notches.vertical), InputEvent(.relWheelHiRes, fine.vertical),
                          InputEvent(.relHWheel, notches.horizontal), InputEvent(.relHWheelHiRes, fine.horizontal)]
            return nonEmpty(events.filter { $0.value != 0 })
        case .rightClick:
            return click(.btnRight)
        case .dragStart:
            guard !held.contains(.btnLeft) else { return [] }
            held.append(.btnLeft)
            return [[.press(.btnLeft)]]
        case .dragEnd:
            return endDrag()
        case .systemGesture(let gesture):
            return chord(ContractTables.systemGestures[gesture] ?? [])
        case .keyPress(let key, let modifiers):
            return chord(modifiers.compactMap { ContractTables.modifiers[$0] } + (ContractTables.keys[key].map { [$0] } ?? []))
        case .text(let string):
            return string.flatMap { character -> [[InputEvent]] in
                guard let stroke = ContractTables.stroke(character), let key = ContractTables.keys[stroke.key] else { return [] }
                return chord((stroke.shift ? ["KEY_LEFTSHIFT"] : []) + [key])
            }
        }
    }

    /// A hid report (`buttons`: the bitmap, compared with what is held) or a udp packet (nil: buttons untouched):
    /// one frame of button changes, motion in counts and whole notches.
    private mutating func pointerFrame(buttons: UInt8?, dx: Int, dy: Int, wheel: Int) -> [[InputEvent]] {
        var events: [InputEvent] = []
        if let buttons {
            for (bit, code) in [(UInt8(1), EventCode.btnLeft), (2, .btnRight), (4, .btnMiddle)] {
                let wanted = buttons & bit != 0
                guard held.contains(code) != wanted else { continue }
                if wanted { held.append(code) } else { held.removeAll { $0 == code } }
                events.append(InputEvent(code, wanted ? 1 : 0))
            }
        }
        events += [InputEvent(.relX, Int32(dx)), InputEvent(.relY, Int32(dy)), InputEvent(.relWheel, Int32(wheel)),
                   InputEvent(.relWheelHiRes, Int32(wheel * ContractTables.hiResUnitsPerNotch))].filter { $0.value != 0 }
        return nonEmpty(events)
    }

    private mutating func endDrag() -> [[InputEvent]] {
        guard let index = held.firstIndex(of: .btnLeft) else { return [] }
        held.remove(at: index)
        return [[.release(.btnLeft)]]
    }

    private func click(_ button: EventCode) -> [[InputEvent]] { [[.press(button)], [.release(button)]] }

    /// One key a frame: each press in order, then each release in reverse.
    private func chord(_ names: [String]) -> [[InputEvent]] {
        let codes = names.map(ContractTables.code)
        return codes.map { [.press($0)] } + codes.reversed().map { [.release($0)] }
    }

    private func nonEmpty(_ events: [InputEvent]) -> [[InputEvent]] { events.isEmpty ? [] : [events] }
}

/// Scroll's or pinch's hi-res units per axis: each command adds its units to the carried fraction, emits the
/// rounded sum (halves away from zero), and a notch each time the units emitted since the last notch reach ±120
/// (whole 120s toward zero, the rest carried).
private struct HiResWheel: Sendable {
    private var fraction = (vertical: 0.0, horizontal: 0.0)
    private var partial = (vertical: 0, horizontal: 0)

    mutating func add(_ vertical: Double, _ horizontal: Double)
        -> (notches: (vertical: Int32, horizontal: Int32), fine: (vertical: Int32, horizontal: Int32))
    {
        let v = Self.axis(vertical, &fraction.vertical, &partial.vertical)
        let h = Self.axis(horizontal, &fraction.horizontal, &partial.horizontal)
        return ((v.notches, h.notches), (v.fine, h.fine))
    }

    private static func axis(_ units: Double, _ fraction: inout Double, _ partial: inout Int) -> (notches: Int32, fine: Int32) {
        fraction += units
        let fine = fraction.rounded()
        fraction -= fine
        partial += Int(fine)
        let notches = partial / ContractTables.hiResUnitsPerNotch
        partial -= notches * ContractTables.hiResUnitsPerNotch
        return (Int32(notches), Int32(fine))
    }
}

/// The input core between the computer and a reader: a relative event of 0, a key event that does not change the
/// key's state, and so a frame left empty, never reach the reader. One per uinput device.
package struct KernelView: Sendable {
    package private(set) var down: Set<EventCode> = []

    package init() {}

    /// What a reader sees of `frames`, written in order.
    package mutating func pass(_ frames: [[InputEvent]]) -> [[InputEvent]] {
        frames.compactMap { frame in
            let passed = frame.filter { event in
                guard event.code.type == .key else { return event.value != 0 }
                let isDown = down.contains(event.code)
                if event.value == 1, !isDown { down.insert(event.code); return true }
                if event.value == 0, isDown { down.remove(event.code); return true }
                return event.value == 2 && isDown
            }
            return passed.isEmpty ? nil : passed
        }
    }
}
