import CommandMapping
import RemoteTouchProtocol

/// BLE's 6-byte HID mouse report (`HIDReport`, taken by the computer through `PointerPayload` and
/// `CommandMapper.pointer`). The decoder accepts exactly what the format allows and what it accepts encodes to
/// the same bytes; the input read as a stream of reports gives button transitions that account for every press
/// and release, and the computer injects exactly those and the motion; a phone's pointer input of any size
/// splits into the fewest reports that add up to it.
package enum HIDFuzz {
    /// The largest |dx| or |dy| a split is tried with (245 reports), and the largest |wheel| (79).
    package static let maxMotion = 8_000_000
    package static let maxWheel = 10_000

    package static func run(_ bytes: [UInt8]) {
        report(bytes)
        sequence(bytes)
        clamping(bytes)
        split(bytes)
    }

    /// What the format allows (seeds/connectivity-layer.md): 6 bytes, button bits 3–7 clear, a wheel other than -128.
    static func allowed(_ bytes: [UInt8]) -> Bool {
        bytes.count == HIDReport.length && bytes[0] & MouseButtons.reservedMask == 0 && bytes[5] != 0x80
    }

    /// The input as one report, and as the computer's pointer input.
    static func report(_ bytes: [UInt8]) {
        let report = try? HIDReport.decode(bytes)
        precondition((report != nil) == allowed(bytes), "HID report \(hex(bytes)): accepted \(report != nil), allowed \(allowed(bytes))")
        let input = try? PointerPayload.decode(bytes, format: .hid)
        guard let report else {
            precondition(input == nil, "a refused HID report \(hex(bytes)) is pointer input")
            return
        }
        precondition(report.encoded() == bytes, "HID report round trip changed \(hex(bytes)) into \(hex(report.encoded()))")
        precondition(report.wheel != .min && report.buttons.rawValue & MouseButtons.reservedMask == 0, "HID report fields out of range")
        precondition(input == PointerInput(report), "HID report \(hex(bytes)) is pointer input \(input.map(\.description) ?? "nil")")
    }

    /// The input as consecutive reports, as the computer receives them on one session: each accepted report moves
    /// the buttons from the last accepted state (a refused one changes nothing, a trailing partial one is
    /// ignored). Each transition presses only buttons that were up and releases only ones that were down, and
    /// applying it gives the report's buttons; the computer's mapper injects exactly those presses and releases,
    /// holds what the report holds, and moves as the report says. At the end the presses less the releases are
    /// what is held, and releasing everything (the link dropped) lets go of exactly that.
    static func sequence(_ bytes: [UInt8]) {
        var mapper = CommandMapper()
        var held = MouseButtons()
        var presses = 0
        var releases = 0
        for start in stride(from: 0, to: bytes.count - HIDReport.length + 1, by: HIDReport.length) {
            let slice = Array(bytes[start..<start + HIDReport.length])
            guard let input = try? PointerPayload.decode(slice, format: .hid) else {
                precondition(!allowed(slice), "HID report \(hex(slice)) refused from a stream")
                continue
            }
            let change = ButtonTransition(from: held, to: input.buttons)
            precondition(change.pressed.isDisjoint(with: change.released), "a button both pressed and released")
            precondition(held.isDisjoint(with: change.pressed), "a held button pressed again")
            precondition(held.isSuperset(of: change.released), "a button released that was not held")
            held = held.union(change.pressed).subtracting(change.released)
            precondition(held == input.buttons, "transitions from \(change) do not reach \(hex(slice))")
            presses += change.pressed.rawValue.nonzeroBitCount
            releases += change.released.rawValue.nonzeroBitCount
            let events = PointerEvents(mapping: input, with: &mapper, buttons: true)
            precondition(events.pressed == change.pressed && events.released == change.released, "\(hex(slice)): \(change), injected \(events)")
            precondition(events.hasMotion(of: input), "\(hex(slice)): injected \(events)")
            precondition(mapper.held.count == held.rawValue.nonzeroBitCount, "\(hex(slice)): the mapper holds \(mapper.held)")
        }
        precondition(presses - releases == held.rawValue.nonzeroBitCount, "\(presses) presses, \(releases) releases, \(held) held")
        let releasedAll = mapper.releaseAll().flatMap(\.events)
        precondition(releasedAll.count == held.rawValue.nonzeroBitCount && releasedAll.allSatisfy { $0.value == 0 }, "releasing \(held): \(releasedAll)")
        precondition(mapper.held.isEmpty, "the mapper still holds \(mapper.held)")
    }

    /// A report made from any integers: its fields are the clamped values, and it decodes from its own
    /// encoding (the encoder never writes what the decoder refuses).
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

    /// The phone's side (`PointerInput.reports`): a pointer input (dx, dy up to `maxMotion`, wheel up to
    /// `maxWheel`) splits into the fewest reports, each with its buttons, none against the direction, adding up to
    /// it exactly; the computer, given them in order, presses the buttons once and moves by the whole input.
    static func split(_ bytes: [UInt8]) {
        var read = FuzzInput(bytes)
        let input = PointerInput(
            buttons: MouseButtons(rawValue: read.byte() & ~MouseButtons.reservedMask),
            dx: read.int(magnitude: maxMotion), dy: read.int(magnitude: maxMotion), wheel: read.int(magnitude: maxWheel))
        let reports = input.reports()
        let minimum = max(1, reportsNeeded(input.dx), reportsNeeded(input.dy), (abs(input.wheel) + 126) / 127)
        precondition(reports.count == minimum, "\(input) split into \(reports.count) reports, not \(minimum)")
        var mapper = CommandMapper()
        var injected = PointerEvents()
        var sum = PointerInput(buttons: input.buttons)
        for run in runs(reports) {
            let report = run.element
            precondition(report.buttons == input.buttons && report.wheel != .min, "\(input): report \(hex(report.encoded()))")
            precondition(
                [(Int(report.dx), input.dx), (Int(report.dy), input.dy), (Int(report.wheel), input.wheel)].allSatisfy { $0.signum() * $1.signum() >= 0 },
                "\(input): report \(hex(report.encoded())) against the direction")
            precondition((try? HIDReport.decode(report.encoded())) == report, "\(input): report \(hex(report.encoded())) does not decode")
            // The mapper is given each different report once; the same report again would press nothing more
            // and move as much again.
            let events = PointerEvents(mapping: PointerInput(report), with: &mapper, buttons: true)
            precondition(events.hasMotion(of: PointerInput(report)), "\(input): \(hex(report.encoded())) injected \(events)")
            injected.pressed.formUnion(events.pressed)
            injected.released.formUnion(events.released)
            sum.dx += Int(report.dx) * run.count
            sum.dy += Int(report.dy) * run.count
            sum.wheel += Int(report.wheel) * run.count
        }
        precondition(sum == input, "\(input) split into reports adding up to \(sum)")
        precondition(injected.pressed == input.buttons && injected.released.isEmpty, "\(input): injected \(injected)")
    }

    /// Reports a motion needs on an int16 axis: 32767 right or down, 32768 left or up, each.
    static func reportsNeeded(_ motion: Int) -> Int {
        motion >= 0 ? (motion + 32_766) / 32_767 : (-motion + 32_767) / 32_768
    }
}

extension PointerInput {
    /// The computer's reading of a report (`PointerPayload.decode`).
    init(_ report: HIDReport) {
        self.init(buttons: report.buttons, dx: Int(report.dx), dy: Int(report.dy), wheel: Int(report.wheel))
    }
}

/// Runs of equal consecutive elements: `[a, a, b]` is `[(a, 2), (b, 1)]`.
func runs<Element: Equatable>(_ elements: [Element]) -> [(element: Element, count: Int)] {
    var runs: [(element: Element, count: Int)] = []
    for element in elements {
        if let last = runs.last, last.element == element { runs[runs.count - 1].count += 1 } else { runs.append((element, 1)) }
    }
    return runs
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
