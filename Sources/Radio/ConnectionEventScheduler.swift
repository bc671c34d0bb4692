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
package struct ConnectionEventScheduler: Sendable {
    package struct Held: Sendable, Hashable {
        package var packet: H4Packet
        package var arrival: RadioInstant
        /// The earliest time it may go: arrival plus the extra delay.
        var eligible: RadioInstant
    }

    package struct Link: Sendable, Hashable {
        package var handle: UInt16
        package var anchor: RadioInstant
        /// Nanoseconds between events; 0 in the immediate model (a packet goes when it is eligible).
        package var interval: Int64
        package var queue: [Held] = []
        /// The last event that carried packets, and how many.
        var served: (event: Int64, count: Int)?

        package static func == (a: Link, b: Link) -> Bool {
            a.handle == b.handle && a.anchor == b.anchor && a.interval == b.interval && a.queue == b.queue
                && a.served?.event == b.served?.event && a.served?.count == b.served?.count
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
    }

    /// A packet the scheduler lets go, with how long it was held.
    package struct Released: Sendable, Hashable {
        package var packet: H4Packet
        package var heldNanoseconds: Int64
    }

    package private(set) var model: RadioModel
    package private(set) var links: [UInt16: Link] = [:]
    /// Totals since the start, for the log's summary.
    package private(set) var statistics = Statistics()

    package struct Statistics: Sendable, Hashable {
        package var released = 0
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

    package init(model: RadioModel) {
        self.model = model
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
        case .connected(let handle, let units):
            let dropped = links[handle]?.queue.map(\.packet) ?? []
            statistics.dropped += dropped.count
            links[handle] = Link(handle: handle, anchor: now, interval: interval(units))
            return dropped
        case .updated(let handle, let units):
            guard var link = links[handle] else { return [] }
            link.anchor = now
            link.interval = interval(units)
            link.served = nil
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

    /// When the head of `link`'s queue goes, and in which event.
    private func slot(_ link: Link) -> (event: Int64, time: RadioInstant)? {
        guard let head = link.queue.first else { return nil }
        guard link.interval > 0 else { return (0, head.eligible) }
        var event = link.event(atOrAfter: head.eligible)
        if let served = link.served, served.event >= event {
            event = served.count < packetsPerEvent ? served.event : served.event + 1
        }
        return (event, link.time(ofEvent: event))
    }

    /// The packets whose event has come by `now`, link by link, each link's in order.
    package mutating func due(at now: RadioInstant) -> [Released] {
        var released: [Released] = []
        for handle in links.keys.sorted() {
            var link = links[handle]!
            while let (event, time) = slot(link), time <= now {
                let held = link.queue.removeFirst()
                if link.interval > 0 {
                    link.served = (event, link.served?.event == event ? link.served!.count + 1 : 1)
                }
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
