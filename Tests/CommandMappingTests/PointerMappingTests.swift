import CommandMapping
import InputCodes
import RemoteTouchProtocol
import Testing

@Suite("Computer-side mapping of pointer reports (hid, udp): buttons as state, counts, notches")
struct PointerMappingTests {
    @Test("a bitmap change presses or releases; a report that keeps a bit set holds it; motion rides in the same frame")
    func buttonsAreState() {
        var mapper = CommandMapper()
        #expect(mapper.pointer(PointerInput(buttons: .left)) == [InputFrame([.press(.btnLeft)])])
        #expect(mapper.pointer(PointerInput(buttons: .left, dx: 4, dy: -2))
            == [InputFrame([InputEvent(.relX, 4), InputEvent(.relY, -2)])])
        #expect(mapper.held == [.btnLeft])
        #expect(mapper.pointer(PointerInput(buttons: [.right, .middle], dx: 1))
            == [InputFrame([.release(.btnLeft), .press(.btnRight), .press(.btnMiddle), InputEvent(.relX, 1)])])
        #expect(mapper.releaseAll() == [InputFrame([.release(.btnMiddle)]), InputFrame([.release(.btnRight)])])
        #expect(mapper.pointer(PointerInput(buttons: [])) == [])
    }

    @Test("a notch is REL_WHEEL with 120 REL_WHEEL_HI_RES, as a HID mouse's driver emits it")
    func wheel() {
        var mapper = CommandMapper()
        #expect(mapper.pointer(PointerInput(buttons: [], wheel: -2))
            == [InputFrame([InputEvent(.relWheel, -2), InputEvent(.relWheelHiRes, -240)])])
    }

    @Test("udp movement leaves the buttons alone: they come over the control connection")
    func udpIgnoresButtons() {
        var mapper = CommandMapper()
        #expect(mapper.pointer(PointerInput(buttons: .left, dx: 3), buttons: false) == [InputFrame([InputEvent(.relX, 3)])])
        #expect(mapper.held.isEmpty)
        _ = try? mapper.map(.dragStart)
        #expect(mapper.pointer(PointerInput(buttons: [], dx: 3), buttons: false) == [InputFrame([InputEvent(.relX, 3)])])
        #expect(mapper.held == [.btnLeft])
    }

    @Test("the phone's counts and notches add up to what the JSON path maps the same commands to")
    func sameTotalsAsJSON() throws {
        var translator = PointerTranslator()
        var json = CommandMapper()
        var reports = CommandMapper()
        var commands: [Command] = []
        for index in 0..<40 {
            let step = Double(index % 7) - 2.5
            let x = 0.3 * Double(index % 5)
            commands.append(index % 4 == 3 ? Command.scroll(dx: 0, dy: step) : Command.cursorMove(delta: Point(x: x, y: -0.45)))
        }
        var totals = (json: [EventCode: Int](), reports: [EventCode: Int]())
        for command in commands {
            for event in try json.map(command).flatMap(\.events) { totals.json[event.code, default: 0] += Int(event.value) }
            for input in translator.translate(command) ?? [] {
                for event in reports.pointer(input).flatMap(\.events) { totals.reports[event.code, default: 0] += Int(event.value) }
            }
        }
        #expect(totals.reports[.relX] == totals.json[.relX])
        #expect(totals.reports[.relY] == totals.json[.relY])
        #expect(totals.reports[.relWheel] == totals.json[.relWheel])
        #expect(PointerTranslator.pointsPerNotch == Double(MappingTable.hiResUnitsPerNotch) / MappingTable.hiResUnitsPerPoint)
    }
}
