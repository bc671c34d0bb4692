import RemoteTouchProtocol

/// BLE's 6-byte HID mouse report (`HIDReport`). The decoder accepts exactly what the format allows and what it
/// accepts encodes to the same bytes; the input read as a stream of reports gives button transitions that
/// account for every press and release; a report built from any integers clamps into its fields and decodes
/// from its own encoding.
public enum HIDFuzz {
    public static func run(_ bytes: [UInt8]) {
        report(bytes)
        sequence(bytes)
        clamping(bytes)
    }

    /// What the format allows (seeds/connectivity-layer.md): 6 bytes, button bits 3–7 clear, a wheel other than -128.
    static func allowed(_ bytes: [UInt8]) -> Bool {
        bytes.count == HIDReport.length && bytes[0] & MouseButtons.reservedMask == 0 && bytes[5] != 0x80
    }

    /// The input as one report.
    static func report(_ bytes: [UInt8]) {
        let report = try? HIDReport.decode(bytes)
        precondition((report != nil) == allowed(bytes), "HID report \(hex(bytes)): accepted \(report != nil), allowed \(allowed(bytes))")
        guard let report else { return }
        precondition(report.encoded() == bytes, "HID report round trip changed \(hex(bytes)) into \(hex(report.encoded()))")
        precondition(report.wheel != .min && report.buttons.rawValue & MouseButtons.reservedMask == 0, "HID report fields out of range")
    }

    /// The input as consecutive reports, as the computer receives them: each accepted report moves the buttons
    /// from the last accepted state (a refused one changes nothing, a trailing partial one is ignored). Each
    /// transition presses only buttons that were up and releases only ones that were down, and applying it
    /// gives the report's buttons; the presses less the releases are what is held at the end, and releasing
    /// that leaves nothing down. The motion adds up without overflow.
    static func sequence(_ bytes: [UInt8]) {
        var held = MouseButtons()
        var presses = 0
        var releases = 0
        var accepted = 0
        var motion = (x: 0, y: 0, wheel: 0)
        for start in stride(from: 0, to: bytes.count - HIDReport.length + 1, by: HIDReport.length) {
            let slice = bytes[start..<start + HIDReport.length]
            guard let report = try? HIDReport.decode(slice) else {
                precondition(!allowed(Array(slice)), "HID report \(hex(slice)) refused from a stream")
                continue
            }
            let change = ButtonTransition(from: held, to: report.buttons)
            precondition(change.pressed.isDisjoint(with: change.released), "a button both pressed and released")
            precondition(held.isDisjoint(with: change.pressed), "a held button pressed again")
            precondition(held.isSuperset(of: change.released), "a button released that was not held")
            held = held.union(change.pressed).subtracting(change.released)
            precondition(held == report.buttons, "transitions from \(change) do not reach \(hex(slice))")
            presses += change.pressed.rawValue.nonzeroBitCount
            releases += change.released.rawValue.nonzeroBitCount
            accepted += 1
            motion.x += Int(report.dx)
            motion.y += Int(report.dy)
            motion.wheel += Int(report.wheel)
        }
        precondition(presses - releases == held.rawValue.nonzeroBitCount, "\(presses) presses, \(releases) releases, \(held) held")
        precondition(ButtonTransition(from: held, to: []).released == held, "releasing what is held")
        let limit = accepted * Int(Int16.max) + accepted
        precondition(abs(motion.x) <= limit && abs(motion.y) <= limit && abs(motion.wheel) <= accepted * 127, "motion out of range")
    }

    /// A report made from any integers (a phone's accumulated deltas): its fields are the clamped values, and
    /// it decodes from its own encoding (the encoder never writes what the decoder refuses).
    static func clamping(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let (dx, dy, wheel) = (input.int(), input.int(), input.int())
        let buttons = MouseButtons(rawValue: input.byte() & ~MouseButtons.reservedMask)
        let report = HIDReport(buttons: buttons, dx: dx, dy: dy, wheel: wheel)
        precondition(Int(report.dx) == max(Int(Int16.min), min(Int(Int16.max), dx)), "dx \(dx) clamped to \(report.dx)")
        precondition(Int(report.dy) == max(Int(Int16.min), min(Int(Int16.max), dy)), "dy \(dy) clamped to \(report.dy)")
        precondition(Int(report.wheel) == max(-127, min(127, wheel)), "wheel \(wheel) clamped to \(report.wheel)")
        precondition((try? HIDReport.decode(report.encoded())) == report, "a built report \(hex(report.encoded())) does not decode")
    }
}

/// The button events between two reports: what goes down and what comes up.
struct ButtonTransition: CustomStringConvertible {
    let pressed: MouseButtons
    let released: MouseButtons

    init(from old: MouseButtons, to new: MouseButtons) {
        pressed = MouseButtons(rawValue: new.rawValue & ~old.rawValue)
        released = MouseButtons(rawValue: old.rawValue & ~new.rawValue)
    }

    var description: String { "pressed \(hex([pressed.rawValue])), released \(hex([released.rawValue]))" }
}
