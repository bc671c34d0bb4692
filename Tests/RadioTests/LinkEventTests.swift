import Radio
import Testing

/// Events as btvirt (BlueZ 5.66 emulator/btdev.c) sends them.
enum Events {
    /// LE Connection Complete: status 0, `handle`, role, peer address, `interval` units, latency 0, timeout 200.
    static func connectionComplete(handle: UInt16, interval: UInt16, status: UInt8 = 0, role: UInt8 = 0) -> H4Packet {
        let parameters: [UInt8] = [0x01, status, UInt8(handle & 0xff), UInt8(handle >> 8), role, 0x00,
                                   0x42, 0x00, 0x00, 0x01, 0xaa, 0x00, UInt8(interval & 0xff), UInt8(interval >> 8),
                                   0x00, 0x00, 0xc8, 0x00, 0x00]
        return H4Packet(bytes: [0x04, 0x3e, UInt8(parameters.count)] + parameters)
    }

    /// LE Enhanced Connection Complete (v1 0x0a or v2 0x29).
    static func enhancedConnectionComplete(handle: UInt16, interval: UInt16, subevent: UInt8 = 0x0a) -> H4Packet {
        var parameters: [UInt8] = [subevent, 0x00, UInt8(handle & 0xff), UInt8(handle >> 8), 0x00, 0x00]
        parameters += [UInt8](repeating: 0x11, count: 18)  // peer address, local RPA, peer RPA
        parameters += [UInt8(interval & 0xff), UInt8(interval >> 8), 0x00, 0x00, 0xc8, 0x00, 0x00]
        if subevent == 0x29 { parameters += [0xff, 0xff, 0xff] }
        return H4Packet(bytes: [0x04, 0x3e, UInt8(parameters.count)] + parameters)
    }

    static func connectionUpdateComplete(handle: UInt16, interval: UInt16) -> H4Packet {
        let parameters: [UInt8] = [0x03, 0x00, UInt8(handle & 0xff), UInt8(handle >> 8), UInt8(interval & 0xff),
                                   UInt8(interval >> 8), 0x00, 0x00, 0xc8, 0x00]
        return H4Packet(bytes: [0x04, 0x3e, UInt8(parameters.count)] + parameters)
    }

    static func disconnectionComplete(handle: UInt16, reason: UInt8 = 0x13) -> H4Packet {
        H4Packet(bytes: [0x04, 0x05, 0x04, 0x00, UInt8(handle & 0xff), UInt8(handle >> 8), reason])
    }

    /// Command Complete of LE Read Buffer Size: LE ACL length 192, `count` buffers (btdev's answer has 1).
    static func leReadBufferSizeComplete(count: UInt8, status: UInt8 = 0) -> H4Packet {
        H4Packet(bytes: [0x04, 0x0e, 0x07, 0x01, 0x02, 0x20, status, 0xc0, 0x00, count])
    }

    /// An ACL packet of `handle` with a marker byte, as the host writes it.
    static func acl(handle: UInt16, marker: UInt8) -> H4Packet {
        H4Packet(bytes: [0x02, UInt8(handle & 0xff), UInt8(handle >> 8) | 0x00, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, marker])
    }
}

@Suite("Link events: what the controller's events say about a link's timing")
struct LinkEventTests {
    @Test("LE Connection Complete gives the handle and the interval")
    func connectionComplete() {
        #expect(LinkEvent(Events.connectionComplete(handle: 0x0040, interval: 12)) == .connected(handle: 0x0040, intervalUnits: 12, timeoutUnits: 200))
    }

    @Test("LE Enhanced Connection Complete, v1 and v2, read the interval after the two RPAs", arguments: [UInt8(0x0a), 0x29])
    func enhanced(_ subevent: UInt8) {
        let packet = Events.enhancedConnectionComplete(handle: 0x0041, interval: 24, subevent: subevent)
        #expect(LinkEvent(packet) == .connected(handle: 0x0041, intervalUnits: 24, timeoutUnits: 200))
    }

    @Test("LE Connection Update Complete and Disconnection Complete")
    func updateAndDisconnect() {
        #expect(LinkEvent(Events.connectionUpdateComplete(handle: 0x0040, interval: 6)) == .updated(handle: 0x0040, intervalUnits: 6, timeoutUnits: 200))
        #expect(LinkEvent(Events.disconnectionComplete(handle: 0x0040, reason: 0x16)) == .disconnected(handle: 0x0040, reason: 0x16))
    }

    @Test("a failed connection, other events and a short event say nothing")
    func nothing() {
        #expect(LinkEvent(Events.connectionComplete(handle: 0, interval: 12, status: 0x3e)) == nil)
        #expect(LinkEvent(Events.leReadBufferSizeComplete(count: 1)) == nil)
        #expect(LinkEvent(H4Packet(bytes: [0x04, 0x3e, 0x02, 0x01, 0x00])) == nil)
        #expect(LinkEvent(Events.acl(handle: 0x40, marker: 1)) == nil)
    }

    @Test("the host is told of more LE ACL buffers only in a successful LE Read Buffer Size with a count of its own")
    func bufferCount() {
        let raised = BufferCount.raised(Events.leReadBufferSizeComplete(count: 1), to: 12)
        #expect(raised?.bytes == [0x04, 0x0e, 0x07, 0x01, 0x02, 0x20, 0x00, 0xc0, 0x00, 12])
        #expect(BufferCount.raised(Events.leReadBufferSizeComplete(count: 0), to: 12) == nil)
        #expect(BufferCount.raised(Events.leReadBufferSizeComplete(count: 1, status: 0x01), to: 12) == nil)
        #expect(BufferCount.raised(Events.disconnectionComplete(handle: 0x40), to: 12) == nil)
        // v2 (0x2060): the LE ACL count sits at the same place.
        let v2 = H4Packet(bytes: [0x04, 0x0e, 0x0a, 0x01, 0x60, 0x20, 0x00, 0xc0, 0x00, 0x01, 0xfb, 0x00, 0x01])
        #expect(BufferCount.raised(v2, to: 8)?.bytes[9] == 8)
    }

    @Test("the self-test plays btvirt's bytes: its Connection Complete and ACL packets are these golden ones")
    func selfTestPackets() {
        #expect(SelfTestPackets.connectionComplete(handle: 0x40, intervalUnits: 12) == Events.connectionComplete(handle: 0x40, interval: 12).bytes)
        #expect(SelfTestPackets.acl(handle: 0x41, marker: 9) == Events.acl(handle: 0x41, marker: 9).bytes)
        #expect(LinkEvent(H4Packet(bytes: SelfTestPackets.connectionComplete(handle: 0x40, intervalUnits: 6)))
            == .connected(handle: 0x0040, intervalUnits: 6, timeoutUnits: 200))
    }
}
