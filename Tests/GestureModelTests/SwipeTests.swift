import GestureModel
import RemoteTouchProtocol
import Testing

@Suite("Swipes move the cursor (R1, R8)")
struct SwipeTests {
    @Test("a 120 pt swipe moves 120 px at sensitivity 1 without acceleration")
    func plainSwipe() {
        let outputs = run(trace.swipe(from: Point(x: 100, y: 300), to: Point(x: 220, y: 300), duration: ms(200)), settings())
        #expect(totalMotion(outputs) == Point(x: 120, y: 0))
        #expect(commands(outputs).allSatisfy { if case .cursorMove = $0 { true } else { false } })
    }

    @Test("sensitivity scales the motion", arguments: [0.5, 1.0, 1.5, 2.0, 3.0])
    func sensitivity(value: Double) throws {
        let sensitivity = try Sensitivity(value)
        let outputs = run(
            trace.swipe(from: Point(x: 100, y: 300), to: Point(x: 100, y: 200), duration: ms(400)),
            settings { $0.sensitivity = sensitivity })
        #expect(totalMotion(outputs) == Point(x: 0, y: (-100 * value).rounded()))
    }

    @Test("acceleration: a fast swipe is scaled by 1 + k·v, capped at 3.0x")
    func acceleration() {
        // 100 pt in 200 ms = 0.5 pt/ms: medium gives 1.3x.
        let medium = run(
            trace.swipe(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0), duration: ms(200)),
            settings { $0.acceleration = .medium })
        #expect(abs(totalMotion(medium).x - 130) <= 1)
        // 300 pt in 50 ms = 6 pt/ms: heavy would be 7x, capped at 3x.
        let heavy = run(
            trace.swipe(from: Point(x: 0, y: 0), to: Point(x: 300, y: 0), duration: ms(50)),
            settings { $0.acceleration = .heavy })
        #expect(totalMotion(heavy).x == 900)
    }

    @Test("movement below the 5 pt threshold sends nothing; 5 pt moves")
    func threshold() {
        let still = [
            TimedInput(ms(0), .touches([touch(100, 100)])),
            TimedInput(ms(100), .touches([touch(104.9, 100)])),
            TimedInput(ms(600), .touches([])),
        ]
        #expect(commands(run(still, settings())).isEmpty)
        let moved = [
            TimedInput(ms(0), .touches([touch(100, 100)])),
            TimedInput(ms(100), .touches([touch(103, 104)])),  // 5 pt diagonally
            TimedInput(ms(600), .touches([])),
        ]
        #expect(commands(run(moved, settings())) == [.cursorMove(delta: Point(x: 3, y: 4))])
    }

    @Test("movement is sent at most every 16 ms and never waits longer (R1.3)")
    func pacing() {
        let outputs = run(
            TouchTrace(sampleInterval: ms(4)).swipe(from: Point(x: 0, y: 0), to: Point(x: 400, y: 0), duration: ms(500)),
            settings())
        let times = outputs.filter { $0.command != nil }.map(\.time)
        #expect(times.count > 20)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier == ms(16), "sends at \(earlier) and \(later)")
        }
        #expect(totalMotion(outputs).x == 400)
    }

    @Test("sub-point motion is carried, not lost")
    func remainders() {
        var inputs = [TimedInput(ms(0), .touches([touch(0, 0)])), TimedInput(ms(20), .touches([touch(6, 0)]))]
        for step in 1...30 {
            inputs.append(TimedInput(ms(20 + Double(step) * 20), .touches([touch(6 + Double(step) * 0.3, 0)])))
        }
        inputs.append(TimedInput(ms(700), .touches([])))
        #expect(totalMotion(run(inputs, settings())).x == 15)
    }

    @Test("deltas are whole points")
    func wholePoints() {
        let outputs = run(trace.swipe(from: .zero, to: Point(x: 77.7, y: -33.3), duration: ms(300)), settings())
        for case .cursorMove(let delta) in commands(outputs) {
            #expect(delta.x == delta.x.rounded() && delta.y == delta.y.rounded())
        }
        #expect(totalMotion(outputs) == Point(x: 78, y: -33))
    }
}
