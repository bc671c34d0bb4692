import Radio
import Testing

@Suite("The bridge's decisions: what goes where, what is rewritten, what is logged")
struct RadioBridgeCoreTests {
    static let events = RadioModel(timing: .connectionEvents(packetsPerEvent: 6, buffers: 12), expectedIntervalUnits: 12)

    @Test("commands from the host go to btvirt at once; ACL of a link waits for its event")
    func hostSide() {
        var core = RadioBridgeCore(model: Self.events)
        let reset = H4Packet(bytes: [0x01, 0x03, 0x0c, 0x00])
        #expect(core.fromHost(reset, at: at(0)) == [.toController(reset)])
        _ = core.fromController(Events.connectionComplete(handle: 0x40, interval: 12), at: at(0))
        #expect(core.fromHost(Events.acl(handle: 0x40, marker: 9), at: at(2)) == [])
        #expect(core.nextRelease == at(15))
        #expect(core.due(at: at(15)) == [.toController(Events.acl(handle: 0x40, marker: 9))])
    }

    @Test("a control line `delay MS` adds to the packets that come after it (held ones keep theirs); others change nothing")
    func controlDelay() {
        var core = RadioBridgeCore(model: Self.events)
        _ = core.fromController(Events.connectionComplete(handle: 0x40, interval: 12), at: at(0))
        _ = core.fromHost(Events.acl(handle: 0x40, marker: 1), at: at(1))
        #expect(core.control("delay 20", at: at(2)) == [.note("control: extra delay now 20 ms for the packets that arrive from now on")])
        #expect(core.model.extraDelayNanoseconds == 20_000_000)
        _ = core.fromHost(Events.acl(handle: 0x40, marker: 2), at: at(2))
        // #1 keeps no delay (event at 15); #2 may go at 22, so at the event at 30.
        #expect(core.due(at: at(15)) == [.toController(Events.acl(handle: 0x40, marker: 1))])
        #expect(core.nextRelease == at(30))
        for bad in ["delay", "delay five", "speed 5", "delay 5 6"] {
            #expect(core.control(bad, at: at(2)) == [.note("control: refused \"\(bad)\": \"\(bad)\" is no command: the bridge takes error-rate P (0 ≤ P < 1), blackout MS (0 to 60000), delay MS (0 to 10000) and state")])
        }
        #expect(core.control("delay 10001", at: at(2)) == [.note("control: refused \"delay 10001\": a delay of 10001 ms is outside 0 to 10000 ms")])
        #expect(core.control("delay -1", at: at(2)) == [.note("control: refused \"delay -1\": a delay of -1 ms is outside 0 to 10000 ms")])
        #expect(core.model.extraDelayNanoseconds == 20_000_000)
        _ = core.control("delay 0", at: at(2))
        #expect(core.model.extraDelayNanoseconds == 0)
    }

    @Test("events go to the host; a link's coming and going is logged with its interval")
    func controllerSide() {
        var core = RadioBridgeCore(model: Self.events)
        let complete = Events.connectionComplete(handle: 0x40, interval: 12)
        #expect(core.fromController(complete, at: at(0)) == [
            .note("link 0x0040 connected, interval 15 ms (12 × 1.25 ms)"), .toHost(complete),
        ])
        _ = core.fromHost(Events.acl(handle: 0x40, marker: 1), at: at(1))
        let gone = Events.disconnectionComplete(handle: 0x40, reason: 0x13)
        #expect(core.fromController(gone, at: at(2)) == [
            .note("link 0x0040 disconnected, reason 0x13; 1 held packet dropped"), .toHost(gone),
        ])
    }

    @Test("an interval other than the rig asked for is logged with what to check")
    func unexpectedInterval() {
        var core = RadioBridgeCore(model: Self.events)
        let outputs = core.fromController(Events.connectionComplete(handle: 0x40, interval: 6), at: at(0))
        #expect(outputs.first == .note("link 0x0040 connected, interval 7.5 ms (6 × 1.25 ms); the rig asked for 15 ms: check bluetoothd's [LE] Min/MaxConnectionInterval"))
    }

    @Test("the connection-event model tells the host of its buffers; the immediate model changes nothing")
    func buffers() {
        var events = RadioBridgeCore(model: Self.events)
        let answer = Events.leReadBufferSizeComplete(count: 1)
        let outputs = events.fromController(answer, at: at(0))
        #expect(outputs == [
            .note("LE ACL buffers: btvirt reports 1, the host is told 12"),
            .toHost(Events.leReadBufferSizeComplete(count: 12)),
        ])
        var immediate = RadioBridgeCore(model: RadioModel(timing: .immediate))
        #expect(immediate.fromController(answer, at: at(0)) == [.toHost(answer)])
    }

    @Test("packets btvirt's server cannot take are dropped with a note, not sent")
    func unsupported() {
        var core = RadioBridgeCore(model: RadioModel(timing: .immediate))
        let sco = H4Packet(bytes: [0x03, 0x01, 0x00, 0x01, 0xaa])
        #expect(core.fromHost(sco, at: at(0)) == [
            .note("dropped sco 0x0001 5 bytes from the host: btvirt's server socket takes commands and ACL data only"),
        ])
    }
}
