import Radio
import Testing

/// A time `ms` milliseconds after an arbitrary origin.
func at(_ ms: Double) -> RadioInstant { RadioInstant(nanoseconds: 1_000_000_000 + Int64(ms * 1_000_000)) }

/// The marker bytes of released packets, and when: what each test expects.
extension ConnectionEventScheduler {
    mutating func markers(dueAt ms: Double) -> [UInt8] { due(at: at(ms)).map { $0.packet.bytes.last! } }
}

@Suite("The connection-event scheduler: anchors, intervals, packets held across events, links that drop")
struct ConnectionEventSchedulerTests {
    static let events = RadioModel(timing: .connectionEvents(packetsPerEvent: 2, buffers: 4))

    /// A scheduler with link 0x0040 connected at 0 ms, interval 15 ms (12 units).
    func connected(_ model: RadioModel = events) -> ConnectionEventScheduler {
        var scheduler = ConnectionEventScheduler(model: model)
        scheduler.apply(.connected(handle: 0x0040, intervalUnits: 12), at: at(0))
        return scheduler
    }

    @Test("a packet waits for the next event: one interval from the anchor, then every interval")
    func nextEvent() {
        var scheduler = connected()
        #expect(scheduler.submit(Events.acl(handle: 0x40, marker: 1), at: at(3)) == nil)
        #expect(scheduler.nextRelease == at(15))
        #expect(scheduler.markers(dueAt: 14.999) == [])
        #expect(scheduler.markers(dueAt: 15) == [1])
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 2), at: at(31))
        #expect(scheduler.nextRelease == at(45))
        #expect(scheduler.markers(dueAt: 44) == [])
        #expect(scheduler.markers(dueAt: 45.2) == [2])
        #expect(scheduler.nextRelease == nil)
    }

    @Test("a packet that arrives exactly at an event goes in it")
    func atTheEvent() {
        var scheduler = connected()
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 1), at: at(30))
        #expect(scheduler.nextRelease == at(30))
    }

    @Test("an event carries packetsPerEvent; the rest wait for the next events, in order")
    func queuedAcrossEvents() {
        var scheduler = connected()
        for marker in UInt8(1)...5 { _ = scheduler.submit(Events.acl(handle: 0x40, marker: marker), at: at(1)) }
        #expect(scheduler.markers(dueAt: 15) == [1, 2])
        #expect(scheduler.nextRelease == at(30))
        #expect(scheduler.markers(dueAt: 29) == [])
        #expect(scheduler.markers(dueAt: 30) == [3, 4])
        // One more arrives before event 3, behind the one still waiting: the event takes both.
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 6), at: at(40))
        #expect(scheduler.markers(dueAt: 45) == [5, 6])
    }

    @Test("woken late, the scheduler lets each missed event carry its share, no more")
    func lateWake() {
        var scheduler = connected()
        for marker in UInt8(1)...5 { _ = scheduler.submit(Events.acl(handle: 0x40, marker: marker), at: at(1)) }
        // Events at 15 and 30 were missed; by 31 ms both have happened: 2 + 2 packets, the fifth at 45.
        #expect(scheduler.markers(dueAt: 31) == [1, 2, 3, 4])
        #expect(scheduler.nextRelease == at(45))
    }

    @Test("an event that carried fewer than its share takes a later packet in the same event")
    func sameEventTwice() {
        var scheduler = connected()
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 1), at: at(1))
        #expect(scheduler.markers(dueAt: 15.1) == [1])
        // Arrived after event 1 (15 ms): it waits for event 2, not event 1 again.
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 2), at: at(15.2))
        #expect(scheduler.nextRelease == at(30))
    }

    @Test("an update re-anchors the link at the new interval; packets held move with it")
    func update() {
        var scheduler = connected()
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 1), at: at(16))
        #expect(scheduler.nextRelease == at(30))
        scheduler.apply(.updated(handle: 0x40, intervalUnits: 24), at: at(20))
        #expect(scheduler.links[0x40]?.interval == 30_000_000)
        #expect(scheduler.nextRelease == at(20))  // arrived before the new anchor: the anchor's event takes it
        #expect(scheduler.markers(dueAt: 20) == [1])
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 2), at: at(21))
        #expect(scheduler.nextRelease == at(50))
    }

    @Test("a disconnect drops the link's held packets and forgets the link; later packets of it go at once")
    func disconnect() {
        var scheduler = connected()
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 1), at: at(2))
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 2), at: at(3))
        let dropped = scheduler.apply(.disconnected(handle: 0x40, reason: 0x13), at: at(5))
        #expect(dropped.map { $0.bytes.last! } == [1, 2])
        #expect(scheduler.statistics.dropped == 2)
        #expect(scheduler.nextRelease == nil)
        #expect(scheduler.markers(dueAt: 100) == [])
        #expect(scheduler.submit(Events.acl(handle: 0x40, marker: 3), at: at(6)) != nil)
    }

    @Test("packets of a handle with no link, and commands, go at once")
    func unknownHandle() {
        var scheduler = connected()
        #expect(scheduler.submit(Events.acl(handle: 0x41, marker: 1), at: at(1))?.bytes.last == 1)
        #expect(scheduler.submit(H4Packet(bytes: [0x01, 0x03, 0x0c, 0x00]), at: at(1)) != nil)
        #expect(scheduler.statistics.passedAtOnce == 2)
    }

    @Test("two links keep their own anchors and queues")
    func twoLinks() {
        var scheduler = connected()
        scheduler.apply(.connected(handle: 0x0041, intervalUnits: 6), at: at(4))
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 1), at: at(5))
        _ = scheduler.submit(Events.acl(handle: 0x41, marker: 2), at: at(5))
        #expect(scheduler.nextRelease == at(11.5))
        #expect(scheduler.markers(dueAt: 11.5) == [2])
        #expect(scheduler.markers(dueAt: 15) == [1])
    }

    @Test("the immediate model passes everything at once; with an extra delay it holds each packet that long")
    func immediate() {
        var plain = connected(RadioModel(timing: .immediate))
        #expect(plain.submit(Events.acl(handle: 0x40, marker: 1), at: at(3)) != nil)
        var delayed = connected(RadioModel(timing: .immediate, extraDelayNanoseconds: 4_000_000))
        #expect(delayed.submit(Events.acl(handle: 0x40, marker: 1), at: at(3)) == nil)
        _ = delayed.submit(Events.acl(handle: 0x40, marker: 2), at: at(3.5))
        #expect(delayed.nextRelease == at(7))
        #expect(delayed.markers(dueAt: 7) == [1])
        #expect(delayed.markers(dueAt: 7.5) == [2])
    }

    @Test("an extra delay in the connection-event model moves a packet to the first event after arrival plus delay")
    func eventsWithDelay() {
        var scheduler = connected(RadioModel(timing: .connectionEvents(packetsPerEvent: 2, buffers: 4), extraDelayNanoseconds: 13_000_000))
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 1), at: at(1))
        #expect(scheduler.nextRelease == at(15))
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 2), at: at(3))
        #expect(scheduler.markers(dueAt: 15) == [1])
        #expect(scheduler.nextRelease == at(30))
    }

    @Test("the totals count what was held, for how long, the longest, and how late after their events packets went")
    func statistics() {
        var scheduler = connected()
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 1), at: at(1))
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 2), at: at(10))
        _ = scheduler.due(at: at(15.5))
        #expect(scheduler.statistics.released == 2)
        #expect(scheduler.statistics.heldNanoseconds == 20_000_000)
        #expect(scheduler.statistics.longestHoldNanoseconds == 14_500_000)
        // Both went half a millisecond after their event at 15 ms: the bridge's wake-up, not the model's wait.
        #expect(scheduler.statistics.lateNanoseconds == 1_000_000)
        #expect(scheduler.statistics.latestNanoseconds == 500_000)
    }
}
