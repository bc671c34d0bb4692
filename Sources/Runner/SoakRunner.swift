import Central
import DBus
import Evdev
import Foundation
public import LatencyStats
import RemoteTouchProtocol

/// `hil soak`: cursor commands at a steady rate through the real link for many minutes, with a report every
/// minute: sent, verified (its evdev frame seen), lost, latency p50/p99, and the computer's resident memory.
public struct SoakRunner: Sendable {
    public struct Minute: Sendable {
        public var minute: Int
        public var sent: Int
        public var verified: Int
        public var latency: LatencySummary
        /// The computer side's VmRSS at the end of the minute, KiB.
        public var residentKiB: Int?
        /// Sent this minute but not seen as a frame (lost by the link, or missed by the evdev reader).
        public var unverified: Int { max(0, sent - verified) }
    }

    public struct Summary: Sendable {
        public var minutes: [Minute]
        /// From the computer's receipts at the end: commands it never received (lost by the link).
        public var lostByLink: Int
        public var sent: Int
        public var readerDrops: Int
    }

    public let context: ScenarioRunner.Context

    public init(context: ScenarioRunner.Context) {
        self.context = context
    }

    public func run(minutes: Int, rateHz: Double, path: String, report: @Sendable (Minute) -> Void) async throws -> Summary {
        let folder = context.workDirectory + "/soak"
        let session = try await PairedSession.open(context, folder: folder)
        let (bluez, peripheral, collector, link) = (session.bluez, session.peripheral, session.collector, session.link)
        defer { peripheral.stop() }
        defer { collector.stop() }
        let fd: Int32? = path == "fd" ? try await bluez.acquireWrite(link.command).fd : nil
        defer { if let fd { close(fd) } }

        let clock = ContinuousClock()
        let interval = 1.0 / rateHz
        var sends: [StageBreakdown.Send] = []
        var results: [Minute] = []
        var index = 0
        var consumed = 0  // frames already matched, in collector order
        for minute in 1...minutes {
            let minuteStart = sends.count
            let minuteOrigin = clock.now
            var tick = 0
            while clock.now < minuteOrigin + .seconds(60) {
                try await Task.sleep(until: minuteOrigin + .nanoseconds(Int64(Double(tick) * interval * 1e9)), clock: clock)
                tick += 1
                let bytes = Command.cursorMove(delta: Point(x: Double(1 + index % 997), y: 0)).encoded()
                let at = MonotonicTime.now()
                if let fd {
                    try AcquiredSocket.write(fd, bytes, what: "cursor command \(index)")
                } else {
                    try await bluez.write(link.command, bytes, withResponse: false)
                }
                sends.append(.init(at: at.nanoseconds, payload: String(decoding: bytes, as: UTF8.self)))
                index += 1
            }
            // Frames of this minute's commands: matched in order by their REL_X value, never to a send after them,
            // once the last ones have landed (no new frame for 300 ms, at most 5 s; the stream pauses meanwhile).
            var seen = -1
            let settleBy = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < settleBy {
                let count = collector.frames(since: MonotonicTime(nanoseconds: sends[minuteStart].at)).count
                if count == seen { break }
                seen = count
                try await Task.sleep(for: .milliseconds(300))
            }
            let frames = collector.frames(since: MonotonicTime(nanoseconds: 0)).filter { $0.events.contains { $0.code == .relX } }
            var latency = LatencyRecorder()
            var verified = 0
            var next = consumed
            for send in sends[minuteStart...] {
                let value = Int32(send.payload.split(separator: "[").last?.split(separator: ",").first.flatMap { Int32($0) } ?? -1)
                var probe = next
                while probe < frames.count && probe < next + 500 {
                    let frame = frames[probe]
                    if frame.events.first(where: { $0.code == .relX })?.value == value && frame.time.nanoseconds >= send.at {
                        latency.record(Double(frame.time.nanoseconds - send.at) / 1e6)
                        verified += 1
                        next = probe + 1
                        break
                    }
                    probe += 1
                }
            }
            consumed = next
            let entry = Minute(minute: minute, sent: sends.count - minuteStart, verified: verified, latency: latency.summary,
                               residentKiB: peripheral.residentKiB())
            results.append(entry)
            report(entry)
        }
        try? await bluez.forget(link)
        peripheral.stop()
        let receipts = StageBreakdown.receipts((try? String(contentsOfFile: peripheral.receiptsFile, encoding: .utf8)) ?? "")
        let alignment = StageBreakdown.align(sends, receipts)
        return Summary(minutes: results, lostByLink: sends.count - alignment.count, sent: sends.count, readerDrops: collector.droppedCount)
    }
}
