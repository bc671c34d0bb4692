import GestureModel
import RemoteTouchProtocol
import Testing

@Suite("Taps and double taps (R2)")
struct TapTests {
    @Test("a tap is a single click, sent once no second tap began within 300 ms")
    func singleTap() {
        let outputs = run(trace.press(at: center, duration: ms(80)), settings())
        #expect(outputs.map(\.event) == [.send(.tap(type: .single))])
        #expect(outputs.first?.time == ms(80 + 300))
    }

    @Test("second tap 299 ms after the first release: double click")
    func doubleAt299() {
        let outputs = run(trace.doubleTap(at: center, gap: ms(299)), settings())
        #expect(commands(outputs) == [.tap(type: .double)])
    }

    @Test("second tap exactly 300 ms after: still a double click (within 300 ms)")
    func doubleAt300() {
        #expect(commands(run(trace.doubleTap(at: center, gap: ms(300)), settings())) == [.tap(type: .double)])
    }

    @Test("second tap 301 ms after: two single clicks")
    func singlesAt301() {
        let outputs = run(trace.doubleTap(at: center, gap: ms(301)), settings())
        #expect(commands(outputs) == [.tap(type: .single), .tap(type: .single)])
        #expect(outputs[0].time == ms(60 + 300))
    }

    @Test("the double-tap interval is a setting")
    func configurableInterval() {
        let outputs = run(trace.doubleTap(at: center, gap: ms(450)), settings { $0.doubleTapInterval = ms(500) })
        #expect(commands(outputs) == [.tap(type: .double)])
    }

    @Test("a held touch (0.5 s) without movement is not a tap")
    func longPressIsNotATap() {
        #expect(commands(run(trace.press(at: center, duration: ms(500)), settings())).isEmpty)
        #expect(commands(run(trace.press(at: center, duration: ms(499)), settings())) == [.tap(type: .single)])
    }

    @Test("a tap then a swipe: the tap goes out before the swipe's motion")
    func tapThenSwipe() {
        let inputs = trace.press(at: center, duration: ms(60))
            + trace.swipe(from: center, to: Point(x: 280, y: 300), duration: ms(100), start: ms(100))
        let sent = commands(run(inputs, settings()))
        #expect(sent.first == .tap(type: .single))
        #expect(sent.count > 2)
        #expect(totalMotion(run(inputs, settings())).x == 100)
    }

    @Test("a tap then a button inside the 300 ms: the tap is sent first, at the button press")
    func tapThenButton() {
        let inputs = trace.press(at: center, duration: ms(60)) + [TimedInput(ms(100), .button(.forward))]
        let outputs = run(inputs, settings())
        #expect(commands(outputs) == [.tap(type: .single), .button(action: .forward)])
        #expect(outputs.map(\.time) == [ms(100), ms(100)])
    }
}
