import RemoteTouchProtocol
import Testing

@Suite("The connectivity layer's phone side: commands as pointer reports (buttons as state, whole counts, wheel notches)")
struct PointerTranslatorTests {
    @Test("a click is the bit set then cleared; a double click twice; a right click on bit 1")
    func clicks() {
        var translator = PointerTranslator()
        #expect(translator.translate(.tap(type: .single)) == [PointerInput(buttons: .left), PointerInput(buttons: [])])
        #expect(translator.translate(.tap(type: .double))?.map(\.buttons) == [.left, [], .left, []])
        #expect(translator.translate(.rightClick) == [PointerInput(buttons: .right), PointerInput(buttons: [])])
    }

    @Test("a drag holds the left bit in every report until it ends; a second dragStart or dragEnd sends nothing")
    func drag() {
        var translator = PointerTranslator()
        #expect(translator.translate(.dragStart) == [PointerInput(buttons: .left)])
        #expect(translator.translate(.dragStart) == [])
        #expect(translator.translate(.dragMove(delta: Point(x: 3, y: -2))) == [PointerInput(buttons: .left, dx: 3, dy: -2)])
        #expect(translator.translate(.dragEnd) == [PointerInput(buttons: [])])
        #expect(translator.translate(.dragEnd) == [])
        // A tap in the middle of a drag ends it first, as the computer's JSON mapping does.
        _ = translator.translate(.dragStart)
        #expect(translator.translate(.tap(type: .single))?.map(\.buttons) == [[], .left, []])
    }

    @Test("motion is whole counts, the fraction carried to the next command, so totals match the JSON path's")
    func motion() {
        var translator = PointerTranslator()
        let moves = (0..<10).map { _ in translator.translate(.cursorMove(delta: Point(x: 0.3, y: -0.25))) ?? [] }.flatMap { $0 }
        #expect(moves.map(\.dx).reduce(0, +) == 3)
        var fresh = PointerTranslator()
        #expect(fresh.translate(.cursorMove(delta: Point(x: 0.1, y: 0.4))) == [])
        #expect(fresh.translate(.cursorMove(delta: Point(x: 0.1, y: 0.4))) == [PointerInput(buttons: [], dx: 0, dy: 1)])
    }

    @Test("a vertical scroll is whole notches of 10 points (fingers down scroll up); a horizontal one is not a report")
    func scroll() {
        var translator = PointerTranslator()
        #expect(translator.translate(.scroll(dx: 0, dy: 25)) == [PointerInput(buttons: [], wheel: 2)])
        #expect(translator.translate(.scroll(dx: 0, dy: 5)) == [PointerInput(buttons: [], wheel: 1)])
        #expect(translator.translate(.scroll(dx: 0, dy: -4)) == [])
        #expect(translator.translate(.scroll(dx: 3, dy: 0)) == nil)
    }

    @Test("what a report cannot say is left to the control path", arguments: [
        Command.keyPress(key: .a, modifiers: []), .text(string: "hi"), .mediaControl(action: .playPause), .modeChange(mode: .presentation),
        .pinch(scale: 1.2), .systemGesture(gesture: .missionControl), .button(action: .back),
    ])
    func notReports(_ command: Command) {
        var translator = PointerTranslator()
        #expect(translator.translate(command) == nil)
        #expect(!PointerTranslator.isMovement(command))
    }

    @Test("movement is cursor and drag motion and a vertical scroll")
    func movement() {
        #expect(PointerTranslator.isMovement(.cursorMove(delta: .zero)))
        #expect(PointerTranslator.isMovement(.dragMove(delta: .zero)))
        #expect(PointerTranslator.isMovement(.scroll(dx: 0, dy: 3)))
        #expect(!PointerTranslator.isMovement(.scroll(dx: 1, dy: 3)))
        #expect(!PointerTranslator.isMovement(.dragStart))
    }

    @Test("a report larger than its fields is split, the parts adding up exactly")
    func split() {
        let reports = PointerInput(buttons: .left, dx: 70_000, dy: -5, wheel: 300).reports()
        #expect(reports.count == 3)
        #expect(reports.map { Int($0.dx) }.reduce(0, +) == 70_000)
        #expect(reports.map { Int($0.dy) }.reduce(0, +) == -5)
        #expect(reports.map { Int($0.wheel) }.reduce(0, +) == 300)
        #expect(reports.allSatisfy { $0.buttons == .left })
    }

    @Test("the computer takes a hid report, and a udp 0xAA packet; a 0xBB control packet is refused on UDP")
    func payloads() throws {
        #expect(try PointerPayload.decode([0x01, 0x0A, 0x00, 0xFB, 0xFF, 0x02], format: .hid)
            == PointerInput(buttons: .left, dx: 10, dy: -5, wheel: 2))
        #expect(try PointerPayload.decode([0xAA, 0x00, 0x05, 0xFB, 0x00], format: .udp) == PointerInput(buttons: [], dx: 5, dy: -5))
        #expect(throws: ProtocolError.self) { try PointerPayload.decode([0xBB, 0x01, 0x00, 0x00, 0x00], format: .udp) }
        #expect(throws: ProtocolError.self) { try PointerPayload.decode([0xAA, 0x00, 0x05, 0xFB], format: .udp) }
        #expect(throws: ProtocolError.self) { try PointerPayload.decode([0x08, 0, 0, 0, 0, 0], format: .hid) }
    }

    @Test("receipts show a report as its transport and hex, with the sender when refused before a session")
    func receiptText() {
        #expect(PointerPayload.text([0x01, 0x0A, 0, 0, 0, 0], format: .hid) == "hid 010a00000000")
        #expect(PointerPayload.text([0xAA, 0, 5, 0, 0], format: .udp, source: "10.77.0.3:4000") == "udp aa00050000 from 10.77.0.3:4000")
        #expect(PointerPayload.kind(ofText: "hid 010a00000000") == "hidReport")
        #expect(PointerPayload.kind(ofText: "udp aa00050000 from 10.77.0.3:4000") == "udpPacket")
        #expect(PointerPayload.kind(ofText: #"{"tap":{"type":"single"}}"#) == nil)
    }
}
