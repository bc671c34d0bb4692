import System

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
        /// A line for the answers file: a numbered command's `BridgeAnswer`.
        case answer(String)
    }

    package private(set) var scheduler: ConnectionEventScheduler
    /// Links the bridge ended at their supervision timeout: btvirt's Disconnection Complete for them (its answer to
    /// the bridge's Disconnect, or the peer's) is not the host's, which already had one.
    private(set) var endedLinks: Set<UInt16> = []
    /// Command Status answers to the bridge's own Disconnects still to come (and to be kept from the host).
    private(set) var ownCommands = 0
    /// Disconnection Complete answers still to come to the bridge's Disconnects whose Command Status came: btvirt
    /// sends the two back to back (btdev.c's cmd_disconnect, then cmd_disconnect_complete), so the next Disconnection
    /// Complete is the answer: for the link, or with status 0x02 (unknown connection) when the peer's bridge ended it
    /// first.
    private(set) var awaitedAnswers = 0
    /// Whether this controller's host advertises: a central's connection to it while it does not is ended at once.
    private(set) var advertising = AdvertisingGate()
    /// Links made to this controller while its host did not advertise, which the bridge is ending: nothing of them
    /// reaches the host.
    private(set) var refusedLinks: Set<UInt16> = []

    package init(model: RadioModel) {
        scheduler = ConnectionEventScheduler(model: model)
    }

    package var model: RadioModel { scheduler.model }

    /// The next time the bridge must act with nothing read: held packets go, or a supervision timer runs out.
    package var nextRelease: RadioInstant? {
        [scheduler.nextRelease, scheduler.nextSupervisionCheck].compactMap { $0 }.min()
    }

    /// A packet the kernel wrote to /dev/vhci at `now`.
    package mutating func fromHost(_ packet: H4Packet, at now: RadioInstant) -> [Output] {
        switch packet.kind {
        case .command:
            let changed = advertising.observe(packet)
            let note: [Output] = changed ? [.note("advertising \(advertising.open ? "on" : "off") (the host sent \(packet))")] : []
            return note + endLinks(beforeReset: packet) + [.toController(packet)]
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
        let event = LinkEvent(packet)  // read once, for every check below
        if let kept = keptFromHost(packet, event) { return [.note(kept)] }
        if let refused = refuseUnadvertised(packet, event) { return refused }
        advertising.observeEvent(packet, event)
        if let event {
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

    /// A line from the bridge's control FIFO (`hil radio --control`): `ID COMMAND` (`BridgeCommand`), carried out and
    /// answered with what the bridge holds then (`BridgeAnswer`), or refused with why; a line without an id is carried
    /// out and logged, not answered.
    package mutating func control(_ line: String, at now: RadioInstant) -> [Output] {
        let (id, parsed) = BridgeCommand.parse(request: line)
        let accepted: Bool
        let message: String
        switch parsed {
        case .success(let command):
            accepted = true
            message = apply(command, at: now)
        case .failure(let error):
            accepted = false
            message = error.what
        }
        var outputs: [Output] = [.note(accepted ? "control: \(message)" : "control: refused \"\(line)\": \(message)")]
        if let id {
            let links = scheduler.links.values.sorted { $0.handle < $1.handle }.map { link in
                BridgeAnswer.Link(handle: link.handle, intervalMs: Double(link.interval) / 1e6, anchorNs: UInt64(max(0, link.anchor.nanoseconds)))
            }
            let answer = BridgeAnswer(id: id, accepted: accepted, errorRate: scheduler.model.packetErrorRate,
                                      delayMs: Double(scheduler.model.extraDelayNanoseconds) / 1e6, links: links, message: message)
            outputs.append(.answer(answer.line))
        }
        return outputs
    }

    /// Carries out a command; what was done, for the log and the answer.
    private mutating func apply(_ command: BridgeCommand, at now: RadioInstant) -> String {
        switch command {
        case .blackout(let ms):
            scheduler.setBlackout(nanoseconds: Int64((ms * 1_000_000).rounded()), at: now)
            let timeouts = scheduler.links.values.map { RadioBridgeCore.format(Double($0.timeout) / 1e6) + " ms" }
            return "blackout for \(RadioBridgeCore.format(ms)) ms: every transmission fails (supervision timeouts: \(timeouts.isEmpty ? "no link" : timeouts.joined(separator: ", ")))"
        case .errorRate(let rate):
            scheduler.setPacketErrorRate(rate)
            return "packet error rate now \(RadioBridgeCore.format(rate)) for the transmissions from now on"
        case .delay(let ms):
            scheduler.setExtraDelay(nanoseconds: Int64((ms * 1_000_000).rounded()))
            return "extra delay now \(RadioBridgeCore.format(ms)) ms for the packets that arrive from now on"
        case .state:
            return "state"
        }
    }

    /// The links whose supervision timeout ran out by `now`, then the held packets whose connection event has come.
    /// A link that times out ends as a controller ends it: its host gets Disconnection Complete with reason 0x08
    /// (Connection Timeout), and btvirt, which keeps no such timer, is told to end its link with a Disconnect carrying
    /// 0x08, which it passes on to the peer's host (btdev.c's cmd_disconnect_complete). btvirt's answers to that
    /// Disconnect are kept from this host.
    package mutating func due(at now: RadioInstant) -> [Output] {
        var outputs: [Output] = []
        for handle in scheduler.timedOut(at: now) {
            endedLinks.insert(handle)
            ownCommands += 1
            outputs += [
                .note("link 0x\(hex(handle, 4)) supervision timeout: nothing heard in a blackout; Disconnection Complete (0x08, Connection Timeout) to the host, Disconnect (0x08) to btvirt"),
                .toHost(LinkEvent.disconnectionComplete(handle: handle, reason: 0x08)),
                .toController(LinkEvent.disconnect(handle: handle, reason: 0x08)),
            ]
        }
        return outputs + scheduler.due(at: now).map { .toController($0.packet) }
    }

    /// A host that resets its controller with links up has lost them: a phone's stack that died, whose adapter
    /// bluetoothd takes back (its first command is HCI Reset, 0x0c03). btvirt drops such links without a word to the
    /// peer (btdev.c's btdev_reset), and no controller timer of the peer's would ever end them, so the peer's host
    /// would keep its link, and whatever it holds, for good. A real peer's controller ends it at its supervision
    /// timeout with 0x08 (Connection Timeout): the bridge has btvirt end each with a Disconnect carrying 0x08 before
    /// the Reset, which btvirt passes on to the peer's host; btvirt's answers are kept from this host, which is
    /// resetting. The peer hears of it when the host resets (in the vm guest 50–90 ms after a phone's stack was
    /// killed), not a supervision timeout after its last packet.
    private mutating func endLinks(beforeReset packet: H4Packet) -> [Output] {
        guard packet.opcode == 0x0c03 else { return [] }
        var outputs: [Output] = []
        for handle in scheduler.dropLinks() {
            ownCommands += 1
            outputs += [
                .note("link 0x\(hex(handle, 4)): the host resets its controller with the link up; Disconnect (0x08, Connection Timeout) to btvirt first, so the peer's host hears the link end"),
                .toController(LinkEvent.disconnect(handle: handle, reason: 0x08)),
            ]
        }
        return outputs
    }

    /// A link btvirt made to this controller while its host did not advertise, which no real radio would have made:
    /// btvirt is told to end it (Disconnect, 0x3e: Connection Failed to be Established, the reason a real central's
    /// controller gives when its connection request is never answered), and the host hears nothing of it; also the
    /// peer's ACL data on such a link. Nil for any other packet.
    private mutating func refuseUnadvertised(_ packet: H4Packet, _ event: LinkEvent?) -> [Output]? {
        if let handle = packet.connectionHandle, packet.kind == .acl, refusedLinks.contains(handle) {
            return [.note("kept from the host: \(packet) on link 0x\(hex(handle, 4)), made while the host did not advertise")]
        }
        guard let handle = AdvertisingGate.peripheralConnection(packet, event), !advertising.open else { return nil }
        refusedLinks.insert(handle)
        ownCommands += 1
        return [
            .note("link 0x\(hex(handle, 4)): a central connected while the host did not advertise; kept from the host, Disconnect (0x3e, Connection Failed to be Established) to btvirt"),
            .toController(LinkEvent.disconnect(handle: handle, reason: 0x3e)),
        ]
    }

    /// Why `packet` from btvirt is not the host's, or nil when it is: btvirt's answers to the bridge's own Disconnect
    /// (its Command Status, its Disconnection Complete of a link the bridge ended, or of none if the peer's ended it
    /// first) and the peer's Disconnection Complete of a link the bridge had ended already.
    private mutating func keptFromHost(_ packet: H4Packet, _ event: LinkEvent?) -> String? {
        if ownCommands > 0, let (opcode, _) = LinkEvent.commandStatus(packet), opcode == 0x0406 {
            ownCommands -= 1
            awaitedAnswers += 1
            return "kept from the host: btvirt's Command Status for the bridge's Disconnect"
        }
        guard let (status, handle, reason) = LinkEvent.disconnection(packet) else {
            if case .connected(let handle, _, _) = event { endedLinks.remove(handle) }
            return nil
        }
        if awaitedAnswers > 0 {
            awaitedAnswers -= 1
            if status == 0 { endedLinks.remove(handle) }
            refusedLinks.remove(handle)
            return status == 0
                ? "kept from the host: btvirt's answer to the bridge's Disconnect of link 0x\(hex(handle, 4)) (reason 0x\(hex(UInt16(reason), 2)))"
                : "kept from the host: btvirt's answer to the bridge's Disconnect of a link the peer had ended already (status 0x\(hex(UInt16(status), 2)))"
        }
        if status == 0, endedLinks.remove(handle) != nil {
            return "kept from the host: the peer's Disconnection Complete of link 0x\(hex(handle, 4)) (reason 0x\(hex(UInt16(reason), 2))), which timed out here first"
        }
        if status == 0, refusedLinks.remove(handle) != nil {
            return "kept from the host: the peer's Disconnection Complete of link 0x\(hex(handle, 4)), made while the host did not advertise"
        }
        return nil
    }

    static func format(_ value: Double) -> String { NumberText.plain(value) }

    private func describe(_ event: LinkEvent, dropped: Int) -> String {
        let handle = "link 0x\(hex(event.handle, 4))"
        let lost = dropped == 0 ? "" : "; \(dropped) held packet\(dropped == 1 ? "" : "s") dropped"
        switch event {
        case .connected(_, let units, _):
            return "\(handle) connected, interval \(Self.milliseconds(units)) (\(units) × 1.25 ms)\(expectation(units))\(lost)"
        case .updated(_, let units, _):
            return "\(handle) updated, interval \(Self.milliseconds(units)) (\(units) × 1.25 ms): its events follow the new interval from now"
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
