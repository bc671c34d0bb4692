import Foundation
import Radio
import Synchronization
import System
import Testing

/// The bridge's real loop on the real clock, fed as `hil bench` feeds it: an ACL packet every 10 ms for 2 s. Each
/// packet's delay (written by the host → read by btvirt) must be its wait for the link's next event and no more:
/// about I/2 in the median, never much over I. The sends carry a jitter of up to half their period, so their phases
/// against the event grid are spread evenly whatever the anchor (a steady 10 ms against 15 ms events visits only
/// three phases, whose mean wait lies anywhere from 5 to 10 ms).
@Suite("The bridge's timing at 100 Hz: each packet waits for its link's next event, no longer", .serialized)
struct RadioBridgeTimingTests {
    static let intervalUnits: UInt16 = 12  // 15 ms
    static let interval: Int64 = Int64(intervalUnits) * RadioModel.nanosecondsPerUnit
    static let count = 200
    /// What scheduling may add to a packet's wait (the bridge's wake, the reader's).
    static let slack: Int64 = 2_000_000
    /// The share of packets that must keep within I + slack and on the grid: a thread of ours now and then waits
    /// tens of ms for a core (up to 13 of 200 packets seen off the grid so). A fault of the model's own (a packet sent
    /// an event late, a timeout in the wrong unit, a wake-up missed) moves nearly every packet.
    static let share = 0.9
    let clock = MonotonicClock()
    static let model = RadioModel(timing: .connectionEvents(packetsPerEvent: 6, buffers: 12))

    /// Up to this many measurements, a second apart: the fast suite runs its tests in parallel, on a 2-core machine
    /// that may be running a QEMU guest, and while it is crowded every thread of ours (four in the path with two
    /// bridges) waits milliseconds for a core: seen failing three attempts in a row in the suite's first seconds,
    /// never alone. A fault of the model's own shows in every attempt; the test fails with the last one's findings
    /// (after about 15 s).
    static let attempts = 5

    @Test("one bridge: delays have a median of I/2, stay under I + 2 ms, and fall on the event grid of the link's anchor")
    func oneBridge() throws {
        try measure { () throws -> [String] in
            let harness = try BridgeHarness(Self.model)
            let anchor = try connect([harness])
            let arrivals = ArrivalRecorder(file: harness.controllerEnd, expecting: Self.count)
            let sent = try sendAt100Hz(to: harness.hostEnd)
            let received = try #require(arrivals.wait(seconds: 2), "not every packet reached btvirt's side")
            let released = try harness.stop().get().scheduler.statistics.released
            return try findings(sent: sent, received: received, anchor: anchor)
                + (released == Self.count ? [] : ["the bridge released \(released) packets, not \(Self.count)"])
        }
    }

    /// The sending side's bridge, btvirt (a relay thread that passes its bytes on at once) and the receiving side's
    /// bridge, which holds nothing of this direction: the second bridge and its anchor must add nothing to the wait.
    @Test("two bridges with btvirt between them: the receiving side's bridge adds nothing to the wait")
    func twoBridges() throws {
        try measure { () throws -> [String] in
            let sender = try BridgeHarness(Self.model), receiver = try BridgeHarness(Self.model)
            let anchor = try connect([sender, receiver])
            let relay = Relay(from: sender.controllerEnd, to: receiver.controllerEnd)
            let arrivals = ArrivalRecorder(file: receiver.hostEnd, expecting: Self.count)
            let sent = try sendAt100Hz(to: sender.hostEnd)
            let received = try #require(arrivals.wait(seconds: 2), "not every packet reached the receiving host")
            relay.stop()
            let held = try sender.stop().get().scheduler.statistics, passed = try receiver.stop().get().scheduler.statistics
            return try findings(sent: sent, received: received, anchor: anchor)
                + (held.released == Self.count && passed.released == 0
                    ? [] : ["the sender's bridge released \(held.released), the receiver's \(passed.released)"])
        }
    }

    /// Runs `attempt` until it finds nothing wrong, at most `attempts` times; records the last attempt's findings.
    func measure(_ attempt: () throws -> [String]) throws {
        var last: [String] = []
        for number in 1...Self.attempts {
            if number > 1 { Thread.sleep(forTimeInterval: 1) }  // a back-off for the crowd, not a wait for an event
            last = try attempt()
            if last.isEmpty { return }
        }
        for finding in last { Issue.record("in each of \(Self.attempts) attempts; the last: \(finding)") }
    }

    /// Link 0x0040 connects on every bridge: LE Connection Complete from btvirt's side, read on the host's. Returns
    /// the span its anchors lie in (from the first write to the last read).
    func connect(_ bridges: [BridgeHarness]) throws -> ClosedRange<RadioInstant> {
        let complete = Events.connectionComplete(handle: 0x40, interval: Self.intervalUnits)
        let earliest = clock.now()
        for bridge in bridges { try bridge.controllerEnd.writeAll(complete.bytes) }
        for bridge in bridges { #expect(BridgeHarness.read(bridge.hostEnd) == complete.bytes) }
        return earliest...clock.now()
    }

    /// Sends `count` ACL packets (markers 1…count) of link 0x0040, one every 10 ms plus a jitter; returns when each
    /// was written.
    func sendAt100Hz(to file: FileDescriptor) throws -> [RadioInstant] {
        var random = SplitMix(seed: 36)
        let start = clock.now().advanced(by: 5_000_000)
        var sent: [RadioInstant] = []
        for index in 0..<Self.count {
            let target = start.advanced(by: Int64(index) * 10_000_000 + Int64(random.next() % 5_000_000))
            var time = timespec(tv_sec: Int(target.nanoseconds / 1_000_000_000), tv_nsec: Int(target.nanoseconds % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
            sent.append(clock.now())
            try file.writeAll(Events.acl(handle: 0x40, marker: UInt8(index + 1)).bytes)
        }
        return sent
    }

    /// What is wrong with the delays (sent → received) and the arrival times; empty when nothing is.
    func findings(sent: [RadioInstant], received: [UInt8: RadioInstant], anchor: ClosedRange<RadioInstant>) throws -> [String] {
        let delays = try (1...Self.count).map { marker in
            try sent[marker - 1].distance(to: #require(received[UInt8(marker)], "packet \(marker) never arrived"))
        }
        var found: [String] = []
        // The median, not the mean: a thread of ours that waited 40 ms for a core moves the mean, not the median.
        let median = Double(delays.sorted()[delays.count / 2]) / 1e6
        if abs(median - 7.5) > 1.5 { found.append("median delay \(median) ms, expected I/2 = 7.5 ± 1.5 ms") }
        let allowed = Self.count - Int((Double(Self.count) * Self.share).rounded())
        let late = delays.enumerated().filter { $0.element > Self.interval + Self.slack }
        if late.count > allowed {
            found.append("\(late.count) packets waited over I + 2 ms (\(allowed) allowed): "
                + "\(late.prefix(8).map { "#\($0.offset + 1) \(Double($0.element) / 1e6) ms" })")
        }
        if delays.min()! < 0 { found.append("a packet arrived before it was sent") }
        // An arrival lies just after an event of the grid from the anchor (which lies between the connection's write
        // and its read).
        let window = anchor.lowerBound.distance(to: anchor.upperBound) + Self.slack
        let offGrid = (1...Self.count).compactMap { marker -> String? in
            let phase = anchor.lowerBound.distance(to: received[UInt8(marker)]!) % Self.interval
            return phase <= window ? nil : "#\(marker) \(Double(phase) / 1e6) ms"
        }
        if offGrid.count > allowed {
            found.append("\(offGrid.count) packets arrived over \(Double(window) / 1e6) ms after an event of the anchor's grid "
                + "(\(allowed) allowed): \(offGrid.prefix(8))")
        }
        return found
    }
}

/// btvirt's part between two bridges: what one controller's client sends reaches the other's at once.
final class Relay: Sendable {
    let stopped = Atomic<Bool>(false)
    let finished = DispatchSemaphore(value: 0)

    init(from source: FileDescriptor, to target: FileDescriptor) {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                guard let bytes = BridgeHarness.read(source, within: 0.05) else { continue }
                _ = try? target.writeAll(bytes)
            }
            finished.signal()
        }
        thread.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        _ = finished.wait(timeout: .now() + 1)
    }
}

/// Reads `file` on a thread of its own, stamping each ACL packet's marker (its last byte) when it is read.
final class ArrivalRecorder: Sendable {
    let arrivals = Mutex<[UInt8: RadioInstant]>([:])
    let done = DispatchSemaphore(value: 0)

    init(file: FileDescriptor, expecting count: Int) {
        let thread = Thread { [self] in
            var framer = H4Framer(source: "btvirt's side (test)")
            let clock = MonotonicClock()
            while let bytes = BridgeHarness.read(file, within: 5) {
                let now = clock.now()
                let packets = (try? framer.append(bytes)) ?? []
                let total = arrivals.withLock { arrivals in
                    for packet in packets where packet.kind == .acl { arrivals[packet.bytes.last!] = now }
                    return arrivals.count
                }
                if total == count { break }
            }
            done.signal()
        }
        thread.start()
    }

    /// Every arrival, or nil when not all came within `seconds`.
    func wait(seconds: Double) -> [UInt8: RadioInstant]? {
        done.wait(timeout: .now() + seconds) == .success ? arrivals.withLock { $0 } : nil
    }
}

/// A small seeded generator (SplitMix64), so a failure can be replayed with the same sends.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
