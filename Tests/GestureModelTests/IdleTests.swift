import GestureModel
import RemoteTouchProtocol
import Testing

@Suite("Idle after 60 s (R11)")
struct IdleTests {
    @Test("60 s without input makes the phone idle, not 59.999 s")
    func becomesIdle() {
        var processor = GestureProcessor(settings: settings())
        _ = processor.handle(.button(.back), at: .zero)
        #expect(processor.advance(to: ms(59_999)).isEmpty)
        #expect(processor.activity == .active)
        let outputs = processor.advance(to: .seconds(60))
        #expect(outputs == [GestureOutput(.seconds(60), .activity(.idle))])
        #expect(processor.activity == .idle)
    }

    @Test("input wakes the phone before anything it causes is sent (R11.3, R11.4)")
    func wakesOnInput() {
        var processor = GestureProcessor(settings: settings())
        _ = processor.advance(to: .seconds(61))
        #expect(processor.activity == .idle)
        let outputs = processor.handle(.button(.forward), at: .seconds(70))
        #expect(outputs == [
            GestureOutput(.seconds(70), .activity(.active)),
            GestureOutput(.seconds(70), .send(.button(action: .forward))),
        ])
        #expect(processor.activity == .active)
    }

    @Test("after waking, movement is paced at 16 ms again")
    func normalRateAfterWake() {
        var processor = GestureProcessor(settings: settings())
        _ = processor.advance(to: .seconds(61))
        var outputs: [GestureOutput] = []
        for input in trace.swipe(from: .zero, to: Point(x: 200, y: 0), duration: ms(200), start: .seconds(70)) {
            outputs += processor.handle(input.input, at: input.time)
        }
        outputs += processor.advance(to: .seconds(71))
        let sendTimes = outputs.filter { $0.command != nil }.map(\.time)
        #expect(sendTimes.count >= 10)
        #expect(zip(sendTimes, sendTimes.dropFirst()).allSatisfy { $1 - $0 == ms(16) })
    }

    @Test("while idle, sends that are not input go at most once per 10 s (R11.2)")
    func idleRateLimit() {
        var processor = GestureProcessor(settings: settings())
        _ = processor.advance(to: .seconds(61))
        let first = processor.resync(at: .seconds(62))
        #expect(first == [GestureOutput(.seconds(62), .send(.modeChange(mode: .basicMouse)))])
        #expect(processor.resync(at: .seconds(65)).isEmpty)
        #expect(processor.nextDeadline == .seconds(72))
        #expect(processor.advance(to: ms(71_999)).isEmpty)
        #expect(processor.advance(to: .seconds(72)) == [GestureOutput(.seconds(72), .send(.modeChange(mode: .basicMouse)))])
        #expect(processor.activity == .idle)
    }

    @Test("while active, a resync goes at once")
    func activeResync() {
        var processor = GestureProcessor(settings: settings { $0.mode = .presentation })
        #expect(processor.resync(at: ms(5)) == [GestureOutput(ms(5), .send(.modeChange(mode: .presentation)))])
        #expect(processor.resync(at: ms(6)).count == 1)
    }

    @Test("the timers are settings, so scenarios can shorten them")
    func shortTimers() {
        var processor = GestureProcessor(settings: settings {
            $0.idleTimeout = .seconds(2)
            $0.idleSendInterval = ms(500)
        })
        #expect(processor.advance(to: .seconds(2)) == [GestureOutput(.seconds(2), .activity(.idle))])
        _ = processor.resync(at: ms(2100))
        #expect(processor.resync(at: ms(2200)).isEmpty)
        #expect(processor.advance(to: ms(2600)).map(\.time) == [ms(2600)])
    }

    @Test("nextDeadline tells a real-time driver when to call advance")
    func nextDeadline() {
        var processor = GestureProcessor(settings: settings())
        #expect(processor.nextDeadline == .seconds(60))
        _ = processor.handle(.touches([touch(0, 0)]), at: ms(100))
        _ = processor.handle(.touches([]), at: ms(150))
        #expect(processor.nextDeadline == ms(450))
        #expect(processor.nextSendDeadline == ms(450))
        #expect(processor.advance(to: ms(450)).map(\.event) == [.send(.tap(type: .single))])
        #expect(processor.nextSendDeadline == nil)
        #expect(processor.nextDeadline == ms(150) + .seconds(60))
    }
}
