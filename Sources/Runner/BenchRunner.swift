import ScenarioDriver
import Central
import DBus
import Evdev
import InputCodes
import Foundation
public import LatencyStats
import RemoteTouchProtocol

/// `hil bench`: streams cursor commands at a fixed rate through the real link, on both write paths, and measures
/// write → evdev latency, the achieved rate and what was lost; then finds the highest rate each path sustains
/// with nothing lost. Needs a rig that is up (it runs inside it, like `hil run`).
public struct BenchRunner: Sendable {
    public struct Settings: Sendable {
        public var count = 1000
        public var rateHz = 100.0
        public var paths: [String] = ["dbus", "fd"]
        /// Rates tried, in order, to find the highest with nothing lost (each for `ladderSeconds`).
        public var ladderHz: [Double] = [100, 200, 300, 400, 600, 800, 1000]
        public var ladderSeconds = 2.0
        public var findMax = true
        public init() {}
    }

    /// One stream of commands at one rate on one path.
    public struct Stream: Sendable {
        public var path: String
        public var rateHz: Double
        public var sent: Int
        /// Commands the computer received (its receipts).
        public var received: Int
        /// Received commands whose frame the evdev reader saw (the latency is theirs).
        public var verified: Int
        /// Times the kernel told the reader it had dropped events (SYN_DROPPED) during the stream.
        public var readerDrops = 0
        public var achievedHz: Double
        public var latency: LatencySummary
        /// Median link, peripheral and kernel times, from the peripheral's receipts.
        public var stages: [String: LatencySummary]
        /// Commands that never reached the computer: lost by the link.
        public var lost: Int { max(0, sent - received) }
        /// Commands the computer received whose frame the verifier did not see (its reader fell behind).
        public var unseen: Int { max(0, received - verified) }
        /// Which commands were lost or unseen, as index ranges ("0-6, 180"), for diagnosis.
        public var lostAt = ""
        public var unseenAt = ""

        public init(path: String, rateHz: Double, sent: Int, received: Int, verified: Int? = nil, achievedHz: Double,
                    latency: LatencySummary, stages: [String: LatencySummary])
        {
            self.path = path
            self.rateHz = rateHz
            self.sent = sent
            self.received = received
            self.verified = verified ?? received
            self.achievedHz = achievedHz
            self.latency = latency
            self.stages = stages
        }
    }

    public struct PathResult: Sendable {
        public var main: Stream
        public var ladder: [Stream]
        /// The highest ladder rate sustained (`BenchRunner.sustains`), trying rates upwards.
        public var maxSustainedHz: Double?
    }

    public let context: ScenarioRunner.Context
    public let settings: Settings

    public init(context: ScenarioRunner.Context, settings: Settings) {
        self.context = context
        self.settings = settings
    }

    /// Runs every path; `progress` gets a line per stream as it finishes.
    public func run(progress: @Sendable (String) -> Void) async throws -> [String: PathResult] {
        let folder = context.workDirectory + "/bench"
        let session = try await PairedSession.open(context, folder: folder)
        let (bluez, peripheral, collector, link) = (session.bluez, session.peripheral, session.collector, session.link)
        defer { peripheral.stopBlocking() }
        defer { collector.stop() }
        defer { Task { [bluez] in try? await bluez.forget(link) } }

        var sends: [StageBreakdown.Send] = []
        var streams: [(path: String, isMain: Bool, run: StreamRun)] = []
        for path in settings.paths {
            var fd: Int32?
            if path == "fd" { fd = try await bluez.acquireWrite(link.command).fd }
            defer { if let fd { close(fd) } }
            let main = try await stream(rate: settings.rateHz, count: settings.count, bluez: bluez, link: link, fd: fd,
                                        collector: collector, sends: &sends)
            streams.append((path, true, main))
            progress("\(path): sent \(main.count) at \(Int(settings.rateHz)) Hz, achieved \(String(format: "%.0f", main.achievedHz)) Hz")
            guard settings.findMax else { continue }
            for rate in settings.ladderHz {
                let step = try await stream(rate: rate, count: Int(rate * settings.ladderSeconds), bluez: bluez, link: link,
                                            fd: fd, collector: collector, sends: &sends)
                streams.append((path, false, step))
                progress("  ladder \(path): sent \(step.count) at \(Int(rate)) Hz, achieved \(String(format: "%.0f", step.achievedHz)) Hz"
                    + (step.blocked > 0 ? ", the socket was full \(step.blocked) time(s)" : ""))
                if step.achievedHz < rate * 0.95 || step.blocked > 0 { break }
            }
        }
        // Every command is matched to its frame through the peripheral's receipts (written when it stops): its
        // receipt, then the frame the kernel stamped between receipt and the end of that uinput write.
        await peripheral.stop()
        let receipts = peripheral.receipts()
        let alignment = StageBreakdown.align(sends, receipts)
        let frameTimes = collector.frames(since: MonotonicTime(nanoseconds: 0)).filter { $0.events.contains { $0.code == .relX } }
            .map(\.time.nanoseconds).sorted()
        var results: [String: PathResult] = [:]
        for path in settings.paths {
            let mine = streams.filter { $0.path == path }
            guard mine.first?.isMain == true else { continue }
            let analysed = mine.map { entry in
                analyse(entry.run, path: path, sends: sends, receipts: receipts, alignment: alignment, frameTimes: frameTimes)
            }
            let ladder = Array(analysed.dropFirst())
            let sustained = ladder.prefix { Self.sustains($0) }.map(\.rateHz).max()
            results[path] = PathResult(main: analysed[0], ladder: ladder, maxSustainedHz: sustained)
        }
        for path in settings.paths {
            guard let result = results[path] else { continue }
            progress(line(result.main))
            for step in result.ladder { progress("  ladder " + line(step)) }
        }
        return results
    }

    /// A rate is sustained when nothing is lost, every command's frame was seen (so injection is proven, not
    /// assumed), at least 95 % of the rate is achieved, and p99 latency stays within 100 ms: a link that falls
    /// behind queues commands (latency grows without bound) before it loses any.
    public static func sustains(_ stream: Stream) -> Bool {
        stream.lost == 0 && stream.unseen == 0 && stream.achievedHz >= stream.rateHz * 0.95 && (stream.latency.p99 ?? .infinity) <= 100
    }

    /// What one stream sent: its sends' indices in the run, the rate achieved, how often the socket was full.
    struct StreamRun {
        var rate: Double
        var range: Range<Int>
        var achievedHz: Double
        var blocked: Int
        var readerDrops: Int
        var count: Int { range.count }
    }

    /// Command i carries the delta `1 + i % 997`.
    private func stream(rate: Double, count: Int, bluez: BlueZCentral, link: BlueZCentral.Peripheral,
                        fd: Int32?, collector: FrameCollector, sends: inout [StageBreakdown.Send]) async throws -> StreamRun
    {
        try await Task.sleep(for: .milliseconds(300))  // let the previous stream's last frames land
        let first = sends.count
        let dropsBefore = collector.droppedCount
        let clock = ContinuousClock()
        let origin = clock.now
        let interval = 1.0 / rate
        var blocked = 0
        for index in 0..<count {
            try await Task.sleep(until: origin + .nanoseconds(Int64(Double(index) * interval * 1e9)), clock: clock)
            // Every payload of a stream differs, so each receipt matches exactly one send.
            let bytes = Command.cursorMove(delta: Point(x: Double(1 + index % 997), y: 0)).encoded()
            let at = MonotonicTime.now()
            if let fd {
                blocked += try AcquiredSocket.write(fd, bytes, what: "cursor command \(index)")
            } else {
                try await bluez.write(link.command, bytes, withResponse: false)
            }
            sends.append(.init(at: at.nanoseconds, payload: String(decoding: bytes, as: UTF8.self)))
        }
        let span = Double((clock.now - origin).components.attoseconds) / 1e18 + Double((clock.now - origin).components.seconds)
        // Wait for stragglers: until no new frame for 300 ms (at most 5 s).
        var seen = -1
        let settleBy = ContinuousClock.now + .seconds(5)
        let since = MonotonicTime(nanoseconds: sends[first].at)
        while ContinuousClock.now < settleBy {
            let now = collector.frames(since: since).count
            if now == seen { break }
            seen = now
            try await Task.sleep(for: .milliseconds(300))
        }
        return StreamRun(rate: rate, range: first..<sends.count, achievedHz: span > 0 ? Double(count) / span : 0, blocked: blocked,
                         readerDrops: collector.droppedCount - dropsBefore)
    }

    /// Each send's latency: its receipt (aligned), then the first frame stamped at or after the receipt and no
    /// later than the end of the uinput write; a send without both is lost. Stages: link (handed to the link →
    /// received) and peripheral (received → uinput write returned).
    private func analyse(_ run: StreamRun, path: String, sends: [StageBreakdown.Send], receipts: [StageBreakdown.Receipt],
                         alignment: [Int: Int], frameTimes: [UInt64]) -> Stream
    {
        var latency = LatencyRecorder()
        var link = LatencyRecorder()
        var peripheral = LatencyRecorder()
        var received = 0
        var verified = 0
        var missing: [Int] = []
        var unseen: [Int] = []
        for index in run.range {
            guard let receiptIndex = alignment[index], let written = receipts[receiptIndex].written?.last else {
                missing.append(index - run.range.lowerBound)
                continue
            }
            received += 1
            let receipt = receipts[receiptIndex]
            // Binary search for the first frame at or after the receipt (evdev stamps have µs resolution).
            var low = 0
            var high = frameTimes.count
            let from = receipt.received >= 1_000 ? receipt.received - 1_000 : 0
            while low < high {
                let middle = (low + high) / 2
                if frameTimes[middle] < from { low = middle + 1 } else { high = middle }
            }
            guard low < frameTimes.count, frameTimes[low] <= written + 1_000 else {
                unseen.append(index - run.range.lowerBound)
                continue
            }
            verified += 1
            let frame = Double(frameTimes[low])
            latency.record((frame - Double(sends[index].at)) / 1e6)
            link.record((Double(receipt.received) - Double(sends[index].at)) / 1e6)
            peripheral.record((Double(written) - Double(receipt.received)) / 1e6)
        }
        var stream = Stream(path: path, rateHz: run.rate, sent: run.count, received: received, verified: verified,
                            achievedHz: run.achievedHz, latency: latency.summary,
                            stages: ["link": link.summary, "peripheral": peripheral.summary])
        stream.lostAt = Self.ranges(missing)
        stream.unseenAt = Self.ranges(unseen)
        stream.readerDrops = run.readerDrops
        return stream
    }

    /// `[0, 1, 2, 7]` → `"0-2, 7"`.
    static func ranges(_ indices: [Int]) -> String {
        var parts: [String] = []
        var start: Int?
        var previous: Int?
        for index in indices + [Int.max] {
            if let p = previous, index == p + 1 { previous = index; continue }
            if let s = start, let p = previous { parts.append(s == p ? "\(s)" : "\(s)-\(p)") }
            start = index
            previous = index
        }
        return parts.joined(separator: ", ")
    }

    private func line(_ stream: Stream) -> String {
        let l = stream.latency
        func f(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "-" }
        return "\(stream.path): \(stream.sent) at \(Int(stream.rateHz)) Hz → achieved \(String(format: "%.0f", stream.achievedHz)) Hz, lost \(stream.lost)\(stream.lostAt.isEmpty ? "" : " (#\(stream.lostAt))"), unseen \(stream.unseen)\(stream.unseenAt.isEmpty ? "" : " (#\(stream.unseenAt))")\(stream.readerDrops > 0 ? ", SYN_DROPPED ×\(stream.readerDrops)" : ""), p50 \(f(l.p50)) p95 \(f(l.p95)) p99 \(f(l.p99)) max \(f(l.max)) ms"
    }
}
