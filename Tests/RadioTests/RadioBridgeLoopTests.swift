import LatencyStats
import Radio
import Testing

/// `time` in ms after the origin, to the nanosecond.
private func ms(_ time: RadioInstant) -> Double { Double(at(0).distance(to: time)) / 1e6 }

/// The bridge's own loop on a virtual clock: what `hil radio` does with each packet, and exactly when.
@Suite("The bridge's loop on a virtual clock: each ACL packet at its link's next connection event, to the nanosecond")
struct RadioBridgeLoopTests {
    static func events(perEvent: Int = 6) -> RadioModel {
        RadioModel(timing: .connectionEvents(packetsPerEvent: perEvent, buffers: RadioModel.buffers(packetsPerEvent: perEvent)))
    }

    static let connected = ScriptedPorts.Input.controller(0, Events.connectionComplete(handle: 0x40, interval: 12))

    /// `hil bench`'s stream: an ACL packet every 10 ms plus a jitter of up to 5 ms (so its phases against the events
    /// are spread), 200 of them; the link connects at 2.5 ms. Each packet reaches btvirt at the first event at or after
    /// its arrival (anchor + k·I), in order, and the loop is never late for an event.
    @Test("at 100 Hz, every packet goes at anchor + k·I, the first event at or after it came; none before, none late",
          arguments: [UInt16(6), 12, 24])
    func hundredHertz(intervalUnits: UInt16) throws {
        let anchor = at(2.5), interval = Int64(intervalUnits) * RadioModel.nanosecondsPerUnit
        var random = SplitMix64(seed: 36)
        let sent = (0..<200).map { at(5).advanced(by: Int64($0) * 10_000_000 + Int64(random.next() % 5_000_000)) }
        let inputs = [ScriptedPorts.Input(at: anchor, side: .controller,
                                          packet: Events.connectionComplete(handle: 0x40, interval: intervalUnits))]
            + sent.enumerated().map { ScriptedPorts.Input(at: $1, side: .host, packet: Events.acl(handle: 0x40, marker: UInt8($0 + 1))) }
        let run = try VirtualBridgeRun(Self.events(), inputs, until: 3000)
        let released = run.written.filter { $0.side == .controller }
        #expect(released.map { $0.packet.bytes.last! } == (1...200).map(UInt8.init))
        let offEvent = zip(sent, released).compactMap { arrival, packet -> String? in
            let event = anchor.advanced(by: (anchor.distance(to: arrival) + interval - 1) / interval * interval)
            return packet.at == event ? nil
                : "#\(packet.packet.bytes.last!) came at \(ms(arrival)), went at \(ms(packet.at)), its event was at \(ms(event))"
        }
        #expect(offEvent.isEmpty, "\(offEvent.count) of 200 packets went off their event (ms): \(offEvent.prefix(5))")
        let delays = zip(sent, released).map { $0.distance(to: $1.at) }
        #expect(delays.allSatisfy { (0..<interval).contains($0) })
        #expect(run.core.scheduler.statistics.released == 200)
        #expect(run.core.scheduler.statistics.latestNanoseconds == 0)
    }

    @Test("an event carries packets-per-event packets; the rest go in the following events, in order")
    func packetsPerEvent() throws {
        let burst = (1...5).map { ScriptedPorts.Input.acl(1, UInt8($0)) }
        let run = try VirtualBridgeRun(Self.events(perEvent: 2), [Self.connected] + burst + [.acl(40, 6)], until: 100)
        #expect(run.toController == [
            Stamped("#1", 15), Stamped("#2", 15), Stamped("#3", 30), Stamped("#4", 30), Stamped("#5", 45), Stamped("#6", 45),
        ])
    }

    @Test("an interval update takes effect at its instant: events before it on the old grid, after it on the new one")
    func update() throws {
        let update = ScriptedPorts.Input.controller(20, Events.connectionUpdateComplete(handle: 0x40, interval: 24))
        let run = try VirtualBridgeRun(Self.events(), [Self.connected, .acl(3, 1), .acl(16, 2), update, .acl(21, 3), .acl(52, 4)],
                                       until: 200)
        // #2 was held for the old grid's 30 ms; the update re-anchors the link at 20 ms, whose event takes it.
        #expect(run.toController == [Stamped("#1", 15), Stamped("#2", 20), Stamped("#3", 50), Stamped("#4", 80)])
        #expect(run.toHost.map(\.ms) == [0, 20])
        #expect(run.notes.last == "link 0x0040 updated, interval 30 ms (24 × 1.25 ms): its events follow the new interval from now")
    }

    @Test("a link that drops discards the packets it held (the host takes their credits back); later ones go at once")
    func disconnect() throws {
        let gone = ScriptedPorts.Input.controller(5, Events.disconnectionComplete(handle: 0x40, reason: 0x13))
        let run = try VirtualBridgeRun(Self.events(), [Self.connected, .acl(2, 1), .acl(3, 2), gone, .acl(6, 3)], until: 100)
        #expect(run.toController == [Stamped("#3", 6)])
        #expect(run.toHost == [Stamped(Events.connectionComplete(handle: 0x40, interval: 12), at: at(0)),
                               Stamped(Events.disconnectionComplete(handle: 0x40), at: at(5))])
        #expect(run.notes.last == "link 0x0040 disconnected, reason 0x13; 2 held packets dropped")
        #expect(run.core.scheduler.statistics.dropped == 2)
    }

    @Test("commands, events and the peer's data pass at once while the link's ACL data waits for its event")
    func othersPassAtOnce() throws {
        // Set Event Mask (a Reset with the link up would end the link first: SupervisionTimeoutTests).
        let reset = H4Packet(bytes: [0x01, 0x01, 0x0c, 0x08, 0xff, 0xff, 0xfb, 0xff, 0x07, 0xf8, 0xbf, 0x3d])
        let peer = Events.acl(handle: 0x40, marker: 9)
        let status = H4Packet(bytes: [0x04, 0x13, 0x05, 0x01, 0x40, 0x00, 0x01, 0x00])  // Number of Completed Packets
        let run = try VirtualBridgeRun(Self.events(), [
            Self.connected, .acl(1, 1), .host(4, reset), .controller(7, status), .controller(8, peer),
        ], until: 100)
        #expect(run.toController == [Stamped(reset, at: at(4)), Stamped("#1", 15)])
        #expect(run.toHost.map(\.ms) == [0, 7, 8])
        #expect(run.toHost.last == Stamped("#9", 8))
    }

    @Test("the immediate model passes everything at once and unchanged; with an extra delay, exactly that much later")
    func immediate() throws {
        let buffers = ScriptedPorts.Input.controller(0.5, Events.leReadBufferSizeComplete(count: 1))
        let inputs: [ScriptedPorts.Input] = [Self.connected, buffers, .acl(3, 1), .acl(3.5, 2), .acl(10, 3)]
        let plain = try VirtualBridgeRun(RadioModel(timing: .immediate), inputs, until: 100)
        #expect(plain.toController == [Stamped("#1", 3), Stamped("#2", 3.5), Stamped("#3", 10)])
        #expect(plain.written.filter { $0.side == .host }.map(\.packet)
            == [Events.connectionComplete(handle: 0x40, interval: 12), Events.leReadBufferSizeComplete(count: 1)])
        #expect(plain.core.scheduler.statistics.passedAtOnce == 3)
        let delayed = try VirtualBridgeRun(RadioModel(timing: .immediate, extraDelayNanoseconds: 4_000_000), inputs, until: 100)
        #expect(delayed.toController == [Stamped("#1", 7), Stamped("#2", 7.5), Stamped("#3", 14)])
    }

    /// A program that owned the phone's controller through the HCI user channel (the Bumble phone) exits with its link
    /// up: the kernel's controller is down, /dev/vhci refuses what btvirt sends it (ENXIO), and bluetoothd powers it
    /// again two seconds later. The bridge drops what the host cannot take, says so once, keeps the other direction
    /// and its links' state, and passes packets again when the host takes them.
    @Test("a host that is gone: its packets are dropped with one line, the bridge goes on, and resumes when it is back")
    func hostGone() throws {
        let reset = H4Packet(bytes: [0x01, 0x03, 0x0c, 0x00])
        let complete = H4Packet(bytes: [0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00])  // Command Complete for Reset
        let run = try VirtualBridgeRun(Self.events(), [
            Self.connected, .acl(5, 1), .controller(20, Events.acl(handle: 0x40, marker: 7)),
            .controller(30, Events.disconnectionComplete(handle: 0x40, reason: 0x08)), .host(60, reset), .controller(61, complete),
        ], until: 100, hostGone: 10..<50)
        #expect(run.toController == [Stamped("#1", 15), Stamped(reset, at: at(60))], "the host's data still goes at its event")
        #expect(run.toHost == [Stamped(Events.connectionComplete(handle: 0x40, interval: 12), at: at(0)), Stamped(complete, at: at(61))])
        #expect(run.refused.map { Stamped($0.packet, at: $0.at) } == [
            Stamped("#7", 20), Stamped(Events.disconnectionComplete(handle: 0x40, reason: 0x08), at: at(30)),
        ])
        #expect(run.core.scheduler.links.isEmpty, "the link that ended while the host was gone is gone from the scheduler")
        let gone = run.notes.filter { $0.hasPrefix("the host is gone") }
        #expect(gone.count == 1, "\(run.notes)")
        #expect(gone.first?.contains("ENXIO") == true)
        #expect(run.notes.last == "the host takes packets again; 2 packets were dropped while it was gone")
    }

    @Test("held packets the run ends on are still held: nothing goes before its event")
    func nothingEarly() throws {
        let run = try VirtualBridgeRun(Self.events(), [Self.connected, .acl(1, 1)], until: 14.999)
        #expect(run.toController == [])
        #expect(run.core.nextRelease == at(15))
    }
}
