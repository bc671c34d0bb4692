import LatencyStats

/// The radio model's clock of each link: it learns links from the controller's events and holds each host→controller
/// ACL packet until its link's next connection event.
///
/// A link's events come every interval from its anchor: the moment the bridge saw its connection complete, and again
/// when an update completes (a real link switches at an instant some events later; the model switches at once). A
/// packet may go at the first event at or after its arrival (plus the model's extra delay); an event carries at most
/// `packetsPerEvent`, the rest wait for the next, in order. Packets of a handle the bridge knows no link for go at
/// once (they come before any connection, which never happens with LE, or after a disconnect, when the controller
/// drops them anyway). When a link disconnects its held packets are dropped, as a controller discards what it had
/// not sent: the host takes back their buffer credits with the Disconnection Complete itself.
///
/// With a packet error rate P each transmission fails with chance P (a seeded draw) and the link layer sends the
/// packet again (Core 5.3, Vol 6, Part B, 4.5.6): at once in the same event, one exchange later, until two failures in
/// a row close the event (for every packet of the link), then at the next event. Packets keep their order: the one at
/// the head is sent again before any after it. Each transmission, received or not, takes one of the event's
/// `packetsPerEvent`. Left out: the peer's own packets' errors (each direction is its own bridge, with its own rate),
/// a failed acknowledgement (the packet received twice, which the link layer's sequence numbers drop), the peer's
/// more-data bit, and the event's length.
///
/// A blackout (`setBlackout`) fails every transmission of every link for its length: nothing goes until the first
/// event after it. A link that hears nothing for its supervision timeout (from the last event before the blackout, or
/// its connection, to the timeout the controller's events gave) ends: `timedOut` names it, as a controller's
/// supervision timer would (Core 5.3, Vol 6, Part B, 4.5.2), and its held packets are dropped.
package struct ConnectionEventScheduler: Sendable {
    package struct Held: Sendable, Hashable {
        package var packet: H4Packet
        package var arrival: RadioInstant
        /// The earliest time it may go: arrival plus the extra delay.
        var eligible: RadioInstant
        /// After a failed transmission, when it goes again in the same event.
        var retry: Retry?
        /// Transmissions so far.
        var attempts = 0
    }

    /// The event a failed packet is sent again in, and when.
    struct Retry: Sendable, Hashable {
        var event: Int64
        var time: RadioInstant
    }

    package struct Link: Sendable, Hashable {
        package var handle: UInt16
        package var anchor: RadioInstant
        /// Nanoseconds between events; 0 in the immediate model (a packet goes when it is eligible).
        package var interval: Int64
        package var queue: [Held] = []
        /// The last event that carried packets, and how many.
        var served: (event: Int64, count: Int)?
        /// The last event two failures in a row closed: nothing more goes in it.
        var closed: Int64?
        /// The event of the link's last transmission when that one failed; nil after one that was received.
        var failedIn: Int64?
        /// The supervision timeout in nanoseconds, from the controller's events; 0 when they did not say (never ends).
        package var timeout: Int64 = 0
        /// In a blackout: the last time the link heard its peer (the last event before the blackout, or its
        /// connection if that came later).
        var silentSince: RadioInstant?

        package static func == (a: Link, b: Link) -> Bool {
            a.handle == b.handle && a.anchor == b.anchor && a.interval == b.interval && a.queue == b.queue
                && a.served?.event == b.served?.event && a.served?.count == b.served?.count && a.timeout == b.timeout
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(handle)
            hasher.combine(anchor)
        }

        /// The first event at or after `time`, and the time of event `index`.
        func event(atOrAfter time: RadioInstant) -> Int64 {
            let since = anchor.distance(to: time)
            guard since > 0 else { return 0 }
            return (since + interval - 1) / interval
        }

        func time(ofEvent index: Int64) -> RadioInstant { anchor.advanced(by: index * interval) }

        /// The last event at or before `time` (the anchor before the first).
        func lastEvent(atOrBefore time: RadioInstant) -> RadioInstant {
            let since = anchor.distance(to: time)
            guard interval > 0, since > 0 else { return since > 0 ? time : anchor }
            return self.time(ofEvent: since / interval)
        }

        /// When the supervision timer ends the link, in a blackout; nil when it does not run or has no timeout.
        var supervisionDeadline: RadioInstant? {
            guard timeout > 0, let silentSince else { return nil }
            return silentSince.advanced(by: timeout)
        }
    }

    /// Every transmission fails from `start` until `end`.
    package struct Blackout: Sendable, Hashable {
        package var start: RadioInstant
        package var end: RadioInstant

        func covers(_ time: RadioInstant) -> Bool { start <= time && time < end }
    }

    /// A packet the scheduler lets go, with how long it was held.
    package struct Released: Sendable, Hashable {
        package var packet: H4Packet
        package var heldNanoseconds: Int64
    }

    package private(set) var model: RadioModel
    package internal(set) var links: [UInt16: Link] = [:]
    /// Totals since the start, for the log's summary.
    package internal(set) var statistics = Statistics()

    package struct Statistics: Sendable, Hashable {
        package var released = 0
        /// Transmissions that failed and were sent again (the packet error rate at work).
        package var retransmissions = 0
        /// Events two failures in a row closed early.
        package var eventsClosed = 0
        /// Links a blackout ended at their supervision timeout.
        package var timeouts = 0
        package var passedAtOnce = 0
        package var dropped = 0
        package var heldNanoseconds: Int64 = 0
        package var longestHoldNanoseconds: Int64 = 0
        /// How long after its event (or, immediate, its eligible time) each packet went: the bridge's own wake-up
        /// latency, which adds to the model's wait. Summed, and the most.
        package var lateNanoseconds: Int64 = 0
        package var latestNanoseconds: Int64 = 0

        package init() {}
    }

    /// The blackout in force or to come, if any.
    package internal(set) var blackout: Blackout?

    /// Which transmissions fail (`RadioModel.packetErrorRate`).
    private var draws: SplitMix64

    package init(model: RadioModel) {
        precondition(BridgeCommand.errorRates.contains(model.packetErrorRate), "a packet error rate is 0 ≤ P < 1")
        self.model = model
        draws = SplitMix64(seed: model.errorSeed)
    }

    /// Changes the packet error rate for the transmissions from now on.
    package mutating func setPacketErrorRate(_ rate: Double) {
        precondition((0..<1).contains(rate), "a packet error rate is 0 ≤ P < 1")
        model.packetErrorRate = rate
    }

    private var packetsPerEvent: Int {
        if case .connectionEvents(let perEvent, _) = model.timing { return perEvent }
        return .max
    }

    /// Applies a link event seen at `now`; returns the packets a disconnect dropped.
    @discardableResult
    package mutating func apply(_ event: LinkEvent, at now: RadioInstant) -> [H4Packet] {
        let immediate = model.timing == .immediate
        func interval(_ units: UInt16) -> Int64 { immediate ? 0 : Int64(units) * RadioModel.nanosecondsPerUnit }
        switch event {
        case .connected(let handle, let units, let timeout):
            let dropped = links[handle]?.queue.map(\.packet) ?? []
            statistics.dropped += dropped.count
            var link = Link(handle: handle, anchor: now, interval: interval(units))
            link.timeout = Int64(timeout) * 10_000_000
            if blackout?.covers(now) == true { link.silentSince = now }
            links[handle] = link
            return dropped
        case .updated(let handle, let units, let timeout):
            guard var link = links[handle] else { return [] }
            link.anchor = now
            link.interval = interval(units)
            link.served = nil
            if timeout > 0 { link.timeout = Int64(timeout) * 10_000_000 }
            links[handle] = link
            return []
        case .disconnected(let handle, _):
            let dropped = links.removeValue(forKey: handle)?.queue.map(\.packet) ?? []
            statistics.dropped += dropped.count
            return dropped
        }
    }

    /// Changes the extra delay for packets that arrive from now on (`hil radio --control`, for `hil calibrate`); the
    /// packets held keep the delay they came with.
    package mutating func setExtraDelay(nanoseconds: Int64) {
        precondition(nanoseconds >= 0, "a delay is not negative")
        model.extraDelayNanoseconds = nanoseconds
    }

    /// Takes a host→controller packet that arrived at `now`: returns it when it goes at once (no link to wait for,
    /// or a model that never holds), nil when it is held (`due` lets it go).
    package mutating func submit(_ packet: H4Packet, at now: RadioInstant) -> H4Packet? {
        guard !model.passesThrough, packet.kind == .acl, let handle = packet.connectionHandle, links[handle] != nil else {
            statistics.passedAtOnce += 1
            return packet
        }
        links[handle]!.queue.append(Held(packet: packet, arrival: now, eligible: now.advanced(by: model.extraDelayNanoseconds)))
        return nil
    }

    /// When the head of `link`'s queue is sent next, and in which event: a retry in the event it failed in, else the
    /// first event at or after it is eligible that is neither closed nor full. A packet that follows another in the
    /// same event goes one exchange after it.
    private func slot(_ link: Link) -> (event: Int64, time: RadioInstant)? {
        guard let slot = unblocked(link) else { return nil }
        // Nothing gets through a blackout: the first event after it.
        guard let blackout, blackout.covers(slot.time) else { return slot }
        guard link.interval > 0 else { return (0, blackout.end) }
        let event = link.event(atOrAfter: blackout.end)
        return (event, link.time(ofEvent: event))
    }

    /// `slot` without a blackout.
    private func unblocked(_ link: Link) -> (event: Int64, time: RadioInstant)? {
        guard let head = link.queue.first else { return nil }
        if let retry = head.retry { return (retry.event, retry.time) }
        guard link.interval > 0 else { return (0, head.eligible) }
        var event = link.event(atOrAfter: head.eligible)
        if let closed = link.closed, closed >= event { event = closed + 1 }
        if let served = link.served, served.event >= event {
            event = served.count < packetsPerEvent && link.closed != served.event ? served.event : served.event + 1
        }
        let start = link.time(ofEvent: event)
        // With errors in play a packet after others in the same event waits its exchanges; without, all go at once.
        guard model.packetErrorRate > 0, let served = link.served, served.event == event else { return (event, start) }
        return (event, max(start.advanced(by: Int64(served.count) * RadioModel.exchangeNanoseconds), head.eligible))
    }

    /// The packets whose event has come by `now`, link by link, each link's in order.
    package mutating func due(at now: RadioInstant) -> [Released] {
        var released: [Released] = []
        endBlackout(at: now)
        for handle in links.keys.sorted() {
            var link = links[handle]!
            while let (event, time) = slot(link), time <= now {
                if link.interval > 0 {
                    link.served = (event, link.served?.event == event ? link.served!.count + 1 : 1)
                }
                link.queue[0].attempts += 1
                if model.packetErrorRate > 0, link.interval > 0, Double(draws.next() >> 11) / Double(1 << 53) < model.packetErrorRate {
                    statistics.retransmissions += 1
                    let secondInARow = link.failedIn == event
                    link.failedIn = event
                    link.queue[0].retry = nil
                    if secondInARow {
                        // Two CRC errors in a row close the event: the next event, for this packet and those after it.
                        statistics.eventsClosed += 1
                        link.closed = event
                    } else if (link.served?.count ?? 0) < packetsPerEvent {
                        link.queue[0].retry = Retry(event: event, time: time.advanced(by: RadioModel.exchangeNanoseconds))
                    }
                    continue
                }
                link.failedIn = nil
                let held = link.queue.removeFirst()
                let heldFor = held.arrival.distance(to: now), late = time.distance(to: now)
                statistics.released += 1
                statistics.lateNanoseconds += late
                statistics.latestNanoseconds = max(statistics.latestNanoseconds, late)
                statistics.heldNanoseconds += heldFor
                statistics.longestHoldNanoseconds = max(statistics.longestHoldNanoseconds, heldFor)
                released.append(Released(packet: held.packet, heldNanoseconds: heldFor))
            }
            links[handle] = link
        }
        return released
    }

    /// The next time a held packet goes, or nil when none is held.
    package var nextRelease: RadioInstant? {
        links.values.compactMap { slot($0)?.time }.min()
    }
}
