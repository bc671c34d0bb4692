import Radio
import Testing

/// A central reaches a peripheral only while its host advertises (Core spec Vol 6 Part B, 4.4.2): btvirt connects
/// any controller it knows by address, so the computer's bridge ends a link its host could not have been found for.
@Suite("The bridge's advertising gate: no link to a host that does not advertise")
struct AdvertisingGateTests {
    static let model = RadioModel(timing: .connectionEvents(packetsPerEvent: 6, buffers: 12), expectedIntervalUnits: 12)

    static func command(_ opcode: UInt16, _ parameters: [UInt8]) -> H4Packet {
        H4Packet(bytes: [0x01, UInt8(opcode & 0xff), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters)
    }

    static let legacyOn = command(0x200a, [0x01]), legacyOff = command(0x200a, [0x00])

    /// Extended advertising enable or disable of `handles` (duration 0, no event limit each).
    static func extended(_ enable: UInt8, _ handles: [UInt8]) -> H4Packet {
        command(0x2039, [enable, UInt8(handles.count)] + handles.flatMap { [$0, 0, 0, 0] })
    }

    static func setTerminated(_ handle: UInt8) -> H4Packet {
        H4Packet(bytes: [0x04, 0x3e, 0x06, 0x12, 0x00, handle, 0x40, 0x00, 0x01])
    }

    @Test("legacy advertising: a peripheral link passes and stops it; the next central is ended with 0x3e and the host hears nothing of it")
    func legacy() {
        var core = RadioBridgeCore(model: Self.model)
        #expect(core.fromHost(Self.legacyOn, at: at(0)).contains(.note("advertising on (the host sent command 0x200a 5 bytes)")))
        let first = Events.connectionComplete(handle: 0x40, interval: 12, role: 0x01)
        #expect(core.fromController(first, at: at(1)).contains(.toHost(first)))
        let gone = Events.disconnectionComplete(handle: 0x40)
        #expect(core.fromController(gone, at: at(2)).contains(.toHost(gone)))

        // The link stopped the advertising and the host did not turn it on again: a second central is refused.
        let second = Events.connectionComplete(handle: 0x41, interval: 12, role: 0x01)
        let refused = core.fromController(second, at: at(3))
        #expect(refused.contains(.toController(LinkEvent.disconnect(handle: 0x41, reason: 0x3e))))
        #expect(!refused.contains { if case .toHost = $0 { true } else { false } }, "\(refused)")
        // The peer's data on it, btvirt's Command Status and Disconnection Complete: none of it is the host's.
        for packet in [Events.acl(handle: 0x41, marker: 1), H4Packet(bytes: [0x04, 0x0f, 0x04, 0x00, 0x01, 0x06, 0x04]),
                       Events.disconnectionComplete(handle: 0x41, reason: 0x3e)] {
            let outputs = core.fromController(packet, at: at(4))
            #expect(!outputs.contains { if case .toHost = $0 { true } else { false } }, "\(packet): \(outputs)")
        }
        // Turned on again, the next central gets through.
        _ = core.fromHost(Self.legacyOn, at: at(5))
        let third = Events.connectionComplete(handle: 0x42, interval: 12, role: 0x01)
        #expect(core.fromController(third, at: at(6)).contains(.toHost(third)))
        #expect(core.scheduler.links.keys.sorted() == [0x42])
    }

    @Test("the host's own central links are never gated")
    func centralRole() {
        var core = RadioBridgeCore(model: Self.model)
        let complete = Events.connectionComplete(handle: 0x40, interval: 12, role: 0x00)
        #expect(core.fromController(complete, at: at(0)).contains(.toHost(complete)))
    }

    @Test("extended sets: on by handle, off by handle, by a disable of none (all), by Set Terminated, Remove, Clear and Reset")
    func extendedSets() {
        var gate = AdvertisingGate()
        #expect(gate.observe(Self.extended(1, [0, 1])) && gate.open)
        #expect(!gate.observe(Self.extended(0, [0])) && gate.open)
        gate.observeEvent(Self.setTerminated(1), LinkEvent(Self.setTerminated(1)))
        #expect(!gate.open)
        _ = gate.observe(Self.extended(1, [2, 3]))
        _ = gate.observe(Self.extended(0, []))
        #expect(!gate.open, "a disable of no sets disables them all")
        let cases: [(on: [H4Packet], off: H4Packet)] = [
            ([Self.extended(1, [4])], Self.command(0x203c, [0x04])),  // Remove Advertising Set 4
            ([Self.extended(1, [4, 5])], Self.command(0x203d, [])),  // Clear Advertising Sets
            ([Self.extended(1, [4]), Self.legacyOn], Self.command(0x0c03, [])),  // Reset
            ([Self.legacyOn], Self.legacyOff),
        ]
        for (on, off) in cases {
            for packet in on { _ = gate.observe(packet) }
            #expect(gate.open)
            #expect(gate.observe(off) && !gate.open, "\(off)")
        }
        // Short or unrelated commands change nothing.
        #expect(!gate.observe(Self.command(0x2039, [0x01])) && !gate.observe(Self.command(0x0c01, [0, 0, 0, 0, 0, 0, 0, 0])))
    }
}
