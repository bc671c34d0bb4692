import GestureModel
import RemoteTouchProtocol
import Testing

@Suite("Drag, multi-finger gestures, media mode, buttons (R3, R7, R9, iPad design)")
struct GestureTests {
    @Test("hold 0.5 s then move: dragStart, dragMove..., dragEnd, in that order")
    func drag() {
        let outputs = run(trace.longPressDrag(at: center, hold: ms(600), by: Point(x: 80, y: 40), duration: ms(300)), settings())
        let sent = commands(outputs)
        #expect(sent.first == .dragStart)
        #expect(sent.last == .dragEnd)
        #expect(sent.dropFirst().dropLast().allSatisfy { if case .dragMove = $0 { true } else { false } })
        #expect(totalMotion(outputs) == Point(x: 80, y: 40))
    }

    @Test("moving before 0.5 s is a swipe, not a drag")
    func earlyMoveIsSwipe() {
        let sent = commands(run(trace.longPressDrag(at: center, hold: ms(400), by: Point(x: 80, y: 0), duration: ms(300)), settings()))
        #expect(!sent.contains(.dragStart))
        #expect(sent.allSatisfy { if case .cursorMove = $0 { true } else { false } })
    }

    @Test("media mode: a tap sends playPause at once")
    func mediaTap() {
        let outputs = run(trace.press(at: center, duration: ms(60)), settings { $0.mode = .mediaControl })
        #expect(outputs.map(\.event) == [.send(.mediaControl(action: .playPause))])
        #expect(outputs.first?.time == ms(60))
    }

    @Test("media mode: swipe up raises, swipe down lowers the volume; no cursor motion (R9.2, R9.3)",
          arguments: [(-100.0, MediaAction.volumeUp), (100.0, .volumeDown)])
    func mediaSwipe(dy: Double, action: MediaAction) {
        let outputs = run(
            trace.swipe(from: center, to: Point(x: center.x, y: center.y + dy), duration: ms(200)),
            settings { $0.mode = .mediaControl })
        #expect(commands(outputs) == [.mediaControl(action: action)])
    }

    @Test("media mode: a short or sideways swipe changes nothing")
    func mediaNoise() {
        let media = settings { $0.mode = .mediaControl }
        #expect(commands(run(trace.swipe(from: center, to: Point(x: 180, y: 275), duration: ms(200)), media)).isEmpty)
        #expect(commands(run(trace.swipe(from: center, to: Point(x: 300, y: 260), duration: ms(200)), media)).isEmpty)
    }

    @Test("buttons are sent as they are; the computer maps them by mode (R3.1, R3.2)")
    func buttons() {
        let inputs = [TimedInput(ms(0), .button(.back)), TimedInput(ms(10), .button(.forward))]
        #expect(commands(run(inputs, settings())) == [.button(action: .back), .button(action: .forward)])
    }

    @Test("a mode pick sends modeChange, only when the mode changes (R7.4)")
    func modeChange() {
        let inputs = [
            TimedInput(ms(0), .mode(.presentation)), TimedInput(ms(5), .mode(.presentation)),
            TimedInput(ms(10), .mode(.mediaControl)), TimedInput(ms(15), .mode(.basicMouse)),
        ]
        #expect(commands(run(inputs, settings())) == [
            .modeChange(mode: .presentation), .modeChange(mode: .mediaControl), .modeChange(mode: .basicMouse),
        ])
    }

    @Test("the new mode changes what later taps send")
    func modeAffectsTaps() {
        let inputs = [TimedInput(ms(0), .mode(.mediaControl))] + trace.press(at: center, start: ms(10))
        #expect(commands(run(inputs, settings())) == [.modeChange(mode: .mediaControl), .mediaControl(action: .playPause)])
    }

    @Test("two fingers: 9 pt of travel scrolls, 7 pt is a right click")
    func scrollActivation() {
        let scrolled = commands(run(trace.swipe(from: center, to: Point(x: 180, y: 309), duration: ms(100), fingers: 2), settings()))
        #expect(scrolled.contains { if case .scroll = $0 { true } else { false } })
        #expect(!scrolled.contains(.rightClick))
        let tapped = commands(run(trace.swipe(from: center, to: Point(x: 180, y: 307), duration: ms(100), fingers: 2), settings()))
        #expect(tapped == [.rightClick])
    }

    @Test("two-finger scroll sends the finger travel on both axes", arguments: [(0.0, 60.0), (-40.0, 0.0), (30.0, -30.0)])
    func scrollTotals(dx: Double, dy: Double) {
        let outputs = run(
            trace.swipe(from: center, to: Point(x: center.x + dx, y: center.y + dy), duration: ms(250), fingers: 2), settings())
        let total = commands(outputs).reduce(Point.zero) { total, command in
            if case .scroll(let x, let y) = command { return Point(x: total.x + x, y: total.y + y) }
            return total
        }
        #expect(total == Point(x: dx, y: dy))
    }

    @Test("scroll sensitivity scales scrolling")
    func scrollSensitivity() throws {
        let fast = try Sensitivity(2.0)
        let outputs = run(
            trace.swipe(from: center, to: Point(x: 180, y: 350), duration: ms(250), fingers: 2),
            settings { $0.scrollSensitivity = fast })
        let dy = commands(outputs).reduce(0.0) { if case .scroll(_, let y) = $1 { $0 + y } else { $0 } }
        #expect(dy == 100)
    }

    @Test("two-finger tap is a right click; held 0.5 s it is nothing")
    func rightClick() {
        #expect(commands(run(trace.press(at: center, fingers: 2), settings())) == [.rightClick])
        #expect(commands(run(trace.press(at: center, duration: ms(500), fingers: 2), settings())).isEmpty)
    }

    @Test("pinch: 16 pt of spread change pinches, 14 pt does not")
    func pinchActivation() {
        let pinched = commands(run(trace.pinch(at: center, spread: 100, scale: 1.16, duration: ms(200)), settings()))
        #expect(pinched.contains { if case .pinch = $0 { true } else { false } })
        let held = commands(run(trace.pinch(at: center, spread: 100, scale: 1.14, duration: ms(200)), settings()))
        #expect(held == [.rightClick])
    }

    @Test("pinch scales multiply up to the whole pinch", arguments: [1.5, 0.5, 2.0])
    func pinchProduct(scale: Double) {
        let sent = commands(run(trace.pinch(at: center, spread: 100, scale: scale, duration: ms(300)), settings()))
        let product = sent.reduce(1.0) { if case .pinch(let s) = $1 { $0 * s } else { $0 } }
        // The part before activation goes with the first step; only the rounding of each step to 0.001 may be off.
        #expect(abs(product - scale) < 0.001, "product \(product)")
    }

    @Test("three-finger swipes trigger system gestures",
          arguments: [(Point(x: 0, y: -120), SystemGesture.missionControl), (Point(x: 0, y: 120), .appExpose),
                      (Point(x: -120, y: 0), .spaceRight), (Point(x: 120, y: 0), .spaceLeft)])
    func threeFinger(delta: Point, gesture: SystemGesture) {
        let sent = commands(run(
            trace.swipe(from: center, to: Point(x: center.x + delta.x, y: center.y + delta.y), duration: ms(250), fingers: 3),
            settings()))
        #expect(sent == [.systemGesture(gesture: gesture)])
    }

    @Test("three fingers moving less than 50 pt do nothing")
    func threeFingerThreshold() {
        let sent = commands(run(trace.swipe(from: center, to: Point(x: 180, y: 251), duration: ms(250), fingers: 3), settings()))
        #expect(sent.isEmpty)
    }

    @Test("keyboard keys and text are sent at once")
    func keyboard() {
        let inputs = [TimedInput(ms(0), .key(.c, modifiers: [.command])), TimedInput(ms(1), .text("hi"))]
        #expect(commands(run(inputs, settings())) == [.keyPress(key: .c, modifiers: [.command]), .text(string: "hi")])
    }

    @Test("a drag's end waits for its last motion: order is kept")
    func orderKept() {
        let outputs = run(trace.longPressDrag(at: center, hold: ms(600), by: Point(x: 30, y: 0), duration: ms(20)), settings())
        let sent = commands(outputs)
        #expect(sent.last == .dragEnd)
        let times = outputs.map(\.time)
        #expect(times == times.sorted())
    }
}
