/// The bridge's decisions, without any I/O: what goes to which side, and what is written to the log. The host side is
/// the kernel (/dev/vhci); the controller side is btvirt (its server socket).
package struct RadioBridgeCore: Sendable {
    package enum Output: Sendable, Hashable {
        /// To btvirt: a command, or ACL data the model lets go.
        case toController(H4Packet)
        /// To the kernel: an event or ACL data from the peer.
        case toHost(H4Packet)
        /// A line for the log.
        case note(String)
    }

    package private(set) var scheduler: ConnectionEventScheduler

    package init(model: RadioModel) {
        scheduler = ConnectionEventScheduler(model: model)
    }

    package var model: RadioModel { scheduler.model }

    /// The next time held packets go.
    package var nextRelease: RadioInstant? { scheduler.nextRelease }

    /// A packet the kernel wrote to /dev/vhci at `now`.
    package mutating func fromHost(_ packet: H4Packet, at now: RadioInstant) -> [Output] {
        switch packet.kind {
        case .command:
            return [.toController(packet)]
        case .acl:
            return scheduler.submit(packet, at: now).map { [.toController($0)] } ?? []
        case .sco, .iso, .event:
            // btvirt's server reads commands and ACL only: anything else makes it print "packet error" and drop
            // the rest of what it read.
            return [.note("dropped \(packet) from the host: btvirt's server socket takes commands and ACL data only")]
        }
    }

    /// A packet btvirt sent at `now`.
    package mutating func fromController(_ packet: H4Packet, at now: RadioInstant) -> [Output] {
        var outputs: [Output] = []
        var packet = packet
        if let event = LinkEvent(packet) {
            let dropped = scheduler.apply(event, at: now)
            outputs.append(.note(describe(event, dropped: dropped.count)))
        }
        if case .connectionEvents(_, let buffers) = model.timing, let raised = BufferCount.raised(packet, to: buffers) {
            outputs.append(.note("LE ACL buffers: btvirt reports \(packet.bytes[9]), the host is told \(buffers)"))
            packet = raised
        }
        outputs.append(.toHost(packet))
        return outputs
    }

    /// A line from the bridge's control FIFO (`hil radio --control`): `delay MS` sets the extra delay for the packets
    /// that arrive from now on (0 to 10000 ms); `error-rate P` the packet error rate of the transmissions from now on
    /// (0 ≤ P < 1). Anything else is logged and changes nothing.
    package mutating func control(_ line: String) -> [Output] {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        if words.count == 2, words[0] == "error-rate", let rate = Double(words[1]), (0..<1).contains(rate) {
            scheduler.setPacketErrorRate(rate)
            return [.note("control: packet error rate now \(rate) for the transmissions from now on")]
        }
        guard words.count == 2, words[0] == "delay", let ms = Double(words[1]), (0...10_000).contains(ms) else {
            return [.note("control: ignored \"\(line)\": the bridge takes \"delay MS\" (0 to 10000) and \"error-rate P\" (0 ≤ P < 1)")]
        }
        let nanoseconds = Int64((ms * 1_000_000).rounded())
        scheduler.setExtraDelay(nanoseconds: nanoseconds)
        return [.note("control: extra delay now \(ms) ms for the packets that arrive from now on")]
    }

    /// The held packets whose connection event has come by `now`.
    package mutating func due(at now: RadioInstant) -> [Output] {
        scheduler.due(at: now).map { .toController($0.packet) }
    }

    private func describe(_ event: LinkEvent, dropped: Int) -> String {
        let handle = "link 0x\(hex(event.handle, 4))"
        let lost = dropped == 0 ? "" : "; \(dropped) held packet\(dropped == 1 ? "" : "s") dropped"
        switch event {
        case .connected(_, let units):
            return "\(handle) connected, interval \(Self.milliseconds(units)) (\(units) × 1.25 ms)\(expectation(units))\(lost)"
        case .updated(_, let units):
            return "\(handle) updated, interval \(Self.milliseconds(units)) (\(units) × 1.25 ms)\(expectation(units))"
        case .disconnected(_, let reason):
            return "\(handle) disconnected, reason 0x\(hex(UInt16(reason), 2))\(lost)"
        }
    }

    private func expectation(_ units: UInt16) -> String {
        guard let expected = model.expectedIntervalUnits, expected != units else { return "" }
        return "; the rig asked for \(Self.milliseconds(expected)): check bluetoothd's [LE] Min/MaxConnectionInterval"
    }

    /// `15 ms`, `7.5 ms`.
    static func milliseconds(_ units: UInt16) -> String {
        let hundredths = Int(units) * 125, whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return "\(whole) ms" }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10) ms" : "\(whole).\(fraction) ms"
    }
}
