import Radio
import Testing

@Suite("A blackout: nothing gets through, and past the supervision timeout the link ends with reason 0x08")
struct SupervisionTimeoutTests {
    static let events = RadioModel(timing: .connectionEvents(packetsPerEvent: 6, buffers: 12))

    /// Link 0x0040 at 15 ms with a 2000 ms supervision timeout (200 × 10 ms), connected at 0 ms.
    func connected() -> ConnectionEventScheduler {
        var scheduler = ConnectionEventScheduler(model: Self.events)
        scheduler.apply(.connected(handle: 0x0040, intervalUnits: 12, timeoutUnits: 200), at: at(0))
        return scheduler
    }

    @Test("a blackout shorter than the timeout holds every packet until the first event after it, in order")
    func shortBlackout() {
        var scheduler = connected()
        scheduler.setBlackout(nanoseconds: 500_000_000, at: at(100))
        for marker in UInt8(1)...3 { _ = scheduler.submit(Events.acl(handle: 0x40, marker: marker), at: at(100 + Double(marker))) }
        // The events at 105 … 585 fall in the blackout; 600 is the first after it.
        #expect(scheduler.nextRelease == at(600))
        #expect(scheduler.markers(dueAt: 599) == [])
        #expect(scheduler.timedOut(at: at(599)) == [])
        #expect(scheduler.markers(dueAt: 600) == [1, 2, 3])
        #expect(scheduler.blackout == nil && scheduler.statistics.timeouts == 0)
        // After it, the link keeps its events and never times out.
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 4), at: at(2500))
        #expect(scheduler.timedOut(at: at(2505)) == [] && scheduler.markers(dueAt: 2505) == [4])
    }

    @Test("a blackout longer than the timeout ends the link its timeout after the last event heard, dropping what it held")
    func longBlackout() {
        var scheduler = connected()
        scheduler.setBlackout(nanoseconds: 3_000_000_000, at: at(100))
        _ = scheduler.submit(Events.acl(handle: 0x40, marker: 1), at: at(110))
        // The last event before the blackout was at 90 ms: the timer runs out at 2090.
        #expect(scheduler.nextSupervisionCheck == at(2090))
        #expect(scheduler.timedOut(at: at(2089.9)) == [])
        #expect(scheduler.timedOut(at: at(2090)) == [0x40])
        #expect(scheduler.links.isEmpty && scheduler.statistics.dropped == 1 && scheduler.statistics.timeouts == 1)
        // A link made during the blackout (the phone reconnecting) waits for its end; its own timer starts at its
        // connection and does not run out before the blackout ends.
        scheduler.apply(.connected(handle: 0x0041, intervalUnits: 12, timeoutUnits: 200), at: at(2500))
        _ = scheduler.submit(Events.acl(handle: 0x41, marker: 2), at: at(2510))
        #expect(scheduler.nextSupervisionCheck == at(3100))
        #expect(scheduler.timedOut(at: at(3099)) == [] && scheduler.markers(dueAt: 3099) == [])
        #expect(scheduler.markers(dueAt: 3100) == [2])
    }

    @Test("the core: the host gets Disconnection Complete 0x08, btvirt a Disconnect 0x08, and btvirt's answers stay away from the host")
    func coreTimesOut() {
        var core = RadioBridgeCore(model: Self.events)
        _ = core.fromController(Events.connectionComplete(handle: 0x40, interval: 12), at: at(0))
        _ = core.control("blackout 3000", at: at(100))
        #expect(core.nextRelease == at(2090))
        #expect(core.due(at: at(2000)) == [])
        let outputs = core.due(at: at(2090))
        #expect(outputs.dropFirst() == [
            .toHost(Events.disconnectionComplete(handle: 0x40, reason: 0x08)),
            .toController(H4Packet(bytes: [0x01, 0x06, 0x04, 0x03, 0x40, 0x00, 0x08])),
        ])
        // btvirt: Command Status for the Disconnect, then its own Disconnection Complete (local host, 0x16).
        let status = H4Packet(bytes: [0x04, 0x0f, 0x04, 0x00, 0x01, 0x06, 0x04])
        #expect(core.fromController(status, at: at(2091)).allSatisfy { if case .note = $0 { true } else { false } })
        #expect(core.fromController(Events.disconnectionComplete(handle: 0x40, reason: 0x16), at: at(2091))
            .allSatisfy { if case .note = $0 { true } else { false } })
        // Another command's status, and the next link, are the host's again.
        let other = H4Packet(bytes: [0x04, 0x0f, 0x04, 0x00, 0x01, 0x0d, 0x20])
        #expect(core.fromController(other, at: at(2200)).last == .toHost(other))
        let next = Events.connectionComplete(handle: 0x41, interval: 12)
        #expect(core.fromController(next, at: at(2300)).last == .toHost(next))
    }

    @Test("a host that resets its controller with a link up (a phone's stack died): btvirt ends the link with 0x08 first, its answers kept from the host")
    func resetWithLinkUp() {
        var core = RadioBridgeCore(model: Self.events)
        _ = core.fromController(Events.connectionComplete(handle: 0x40, interval: 12), at: at(0))
        let reset = H4Packet(bytes: [0x01, 0x03, 0x0c, 0x00])
        let outputs = core.fromHost(reset, at: at(500))
        #expect(outputs.dropFirst() == [.toController(H4Packet(bytes: [0x01, 0x06, 0x04, 0x03, 0x40, 0x00, 0x08])), .toController(reset)], "\(outputs)")
        #expect(core.scheduler.links.isEmpty)
        let status = H4Packet(bytes: [0x04, 0x0f, 0x04, 0x00, 0x01, 0x06, 0x04])
        #expect(core.fromController(status, at: at(501)).allSatisfy { if case .note = $0 { true } else { false } })
        #expect(core.fromController(Events.disconnectionComplete(handle: 0x40, reason: 0x16), at: at(501))
            .allSatisfy { if case .note = $0 { true } else { false } })
        // The Reset's own answer, and a Reset with no link, are the host's business only.
        let complete = H4Packet(bytes: [0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00])
        #expect(core.fromController(complete, at: at(502)).last == .toHost(complete))
        #expect(core.fromHost(reset, at: at(600)) == [.toController(reset)])
    }

    @Test("when the peer's bridge timed out first, its 0x08 goes to the host as it is; when both did, btvirt's second answers are kept")
    func peerFirst() {
        var core = RadioBridgeCore(model: Self.events)
        _ = core.fromController(Events.connectionComplete(handle: 0x40, interval: 12), at: at(0))
        _ = core.control("blackout 3000", at: at(100))
        let peers = Events.disconnectionComplete(handle: 0x40, reason: 0x08)
        #expect(core.fromController(peers, at: at(2089)).last == .toHost(peers))
        #expect(core.due(at: at(2090)) == [])

        var both = RadioBridgeCore(model: Self.events)
        _ = both.fromController(Events.connectionComplete(handle: 0x40, interval: 12), at: at(0))
        _ = both.control("blackout 3000", at: at(100))
        #expect(both.due(at: at(2090)).count == 3)
        // The peer's 0x08 was already on its way; then btvirt answers the bridge's Disconnect of a link it no
        // longer has: Command Status, then Disconnection Complete with status 0x02 (unknown connection) and handle 0.
        for packet in [peers, H4Packet(bytes: [0x04, 0x0f, 0x04, 0x00, 0x01, 0x06, 0x04]),
                       H4Packet(bytes: [0x04, 0x05, 0x04, 0x02, 0x00, 0x00, 0x00])] {
            #expect(both.fromController(packet, at: at(2091)).allSatisfy { if case .note = $0 { true } else { false } })
        }
    }

    @Test("btvirt 5.66 answers the bridge's Disconnect with the reason it was given: still kept, and a later failed Disconnect of the host's reaches it")
    func answerWithReason() {
        var core = RadioBridgeCore(model: Self.events)
        _ = core.fromController(Events.connectionComplete(handle: 0x40, interval: 12), at: at(0))
        _ = core.control("blackout 3000", at: at(100))
        #expect(core.due(at: at(2090)).count == 3)
        let status = H4Packet(bytes: [0x04, 0x0f, 0x04, 0x00, 0x01, 0x06, 0x04])
        for packet in [status, Events.disconnectionComplete(handle: 0x40, reason: 0x08)] {
            #expect(core.fromController(packet, at: at(2091)).allSatisfy { if case .note = $0 { true } else { false } })
        }
        // The host's own Disconnect of a link that is gone, later: its answers are the host's.
        let unknown = H4Packet(bytes: [0x04, 0x05, 0x04, 0x02, 0x00, 0x00, 0x00])
        #expect(core.fromController(status, at: at(5000)).last == .toHost(status))
        #expect(core.fromController(unknown, at: at(5000)).last == .toHost(unknown))
    }

    @Test("a blackout line out of range, or without a number, changes nothing")
    func badLines() {
        var core = RadioBridgeCore(model: Self.events)
        for bad in ["blackout", "blackout -5", "blackout 60001", "blackout long"] {
            _ = core.control(bad, at: at(0))
            #expect(core.scheduler.blackout == nil, "\(bad)")
        }
    }
}
