/// A blackout and the supervision timeout it can run into.
extension ConnectionEventScheduler {
    /// From `now`, every transmission fails for `nanoseconds`; each link's supervision timer runs from the last event
    /// it had before now. A blackout replaces one in force.
    package mutating func setBlackout(nanoseconds: Int64, at now: RadioInstant) {
        precondition(nanoseconds >= 0, "a blackout is not negative")
        blackout = Blackout(start: now, end: now.advanced(by: nanoseconds))
        for handle in links.keys {
            links[handle]!.silentSince = links[handle]!.lastEvent(atOrBefore: now)
        }
    }

    /// Forgets a blackout that has ended by `now`: the links' supervision timers stop (the first event after it is
    /// heard).
    mutating func endBlackout(at now: RadioInstant) {
        guard let blackout, blackout.end <= now else { return }
        self.blackout = nil
        for handle in links.keys { links[handle]!.silentSince = nil }
    }

    /// The links whose supervision timeout has run out by `now` in a blackout that lasts past it: each is ended, its
    /// held packets dropped (as a controller discards what it had not sent). Returns their handles.
    package mutating func timedOut(at now: RadioInstant) -> [UInt16] {
        guard let blackout else { return [] }
        var ended: [UInt16] = []
        for handle in links.keys.sorted() {
            guard let deadline = links[handle]!.supervisionDeadline, deadline <= now, deadline < blackout.end else { continue }
            let link = links.removeValue(forKey: handle)!
            statistics.dropped += link.queue.count
            statistics.timeouts += 1
            ended.append(handle)
        }
        return ended
    }

    /// Every link ended at once (its host reset its controller), their held packets dropped. Returns their handles.
    package mutating func dropLinks() -> [UInt16] {
        let handles = links.keys.sorted()
        for handle in handles { statistics.dropped += links.removeValue(forKey: handle)!.queue.count }
        return handles
    }

    /// The next supervision deadline a blackout will reach, or its end (when the links' timers stop): when the
    /// bridge must look again even with nothing to send.
    package var nextSupervisionCheck: RadioInstant? {
        guard let blackout else { return nil }
        let deadlines = links.values.compactMap(\.supervisionDeadline).filter { $0 < blackout.end }
        return deadlines.min() ?? blackout.end
    }
}
