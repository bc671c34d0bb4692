import ScenarioDriver
import Foundation
package import LatencyStats
package import RunContext

extension BenchRunner.Settings {
    /// bench.json's `pacing`: how this run's streams were timed.
    package var pacing: String {
        dither
            ? SendSchedule.pacing(dithered: true, rate: rateHz, which: "dbus, fd and hid (hil's own BLE paths)")
                + "; tcp, udp and the reference clients regular"
            : SendSchedule.pacing(dithered: false, rate: rateHz, which: "every path")
    }
}

/// `hil bench`: streams cursor commands at a fixed rate through the real link, on both write paths, and measures
/// write → evdev latency, the achieved rate and what was lost; then finds the highest rate each path sustains
/// with nothing lost. Needs a rig that is up (it runs inside it, like `hil run`).
package struct BenchRunner: Sendable {
    package struct Settings: Sendable {
        package var count = 1000
        package var rateHz = 100.0
        /// In the order they run: `dbus` (WriteValue) and `fd` (the AcquireWrite socket) from hil's own client;
        /// `python-dbus` and `python-fd` the same from the reference client (`referenceClient`); `hid` reports;
        /// `tcp` the iPad design's network transport (Bonjour, pairing, 120 Hz batches) and `udp` (5-byte packets
        /// after pairing over a control connection) from the rig's phone host; `python-tcp` and `python-udp` the same
        /// from the network reference client (`referenceNetworkClient`).
        package var paths: [String] = ["dbus", "fd"]
        /// Rates tried, in order, to find the highest sustained: each a rung of `repetitions` streams of
        /// `rungSeconds`.
        package var ladderHz: [Double] = [100, 200, 300, 400, 600, 800, 1000]
        package var rungSeconds = 5.0
        package var repetitions = 3
        package var findMax = true
        /// Dither the sends of hil's own BLE paths (dbus, fd, hid) within each slot (`SendSchedule`): a regular stream
        /// meets a periodic radio's events at a few fixed phases, so its p50 depends on where it started.
        package var dither = true
        /// The reference client (Rigs/reference/bench_client.py), for the `python-dbus` and `python-fd` paths.
        package var referenceClient: String?
        /// The network reference client (Rigs/reference/net_bench_client.py), for `python-tcp` and `python-udp`.
        package var referenceNetworkClient: String?
        package init() {}
    }

    /// One stream of commands at one rate on one path.
    package struct Stream: Sendable {
        package var path: String
        package var rateHz: Double
        package var sent: Int
        /// Commands the computer received (its receipts).
        package var received: Int
        /// Received commands whose frame the evdev reader saw (the latency is theirs).
        package var verified: Int
        /// Times the kernel told the reader it had dropped events (SYN_DROPPED) during the stream.
        package var readerDrops = 0
        package var achievedHz: Double
        package var latency: LatencySummary
        /// Median link, peripheral and kernel times, from the peripheral's receipts.
        package var stages: [String: LatencySummary]
        /// Commands that never reached the computer: lost by the link.
        package var lost: Int { max(0, sent - received) }
        /// Commands the computer received whose frame the verifier did not see (its reader fell behind).
        package var unseen: Int { max(0, received - verified) }
        /// Which commands were lost or unseen, as index ranges ("0-6, 180"), for diagnosis.
        package var lostAt = ""
        package var unseenAt = ""
        /// Each verified command's latency (send → evdev frame), in ms, in send order.
        package var latencySamples: [Double] = []
        /// What the kernel held once the stream's last frame landed (EVIOCGKEY): a cursor stream holds nothing, so
        /// anything here fails the run (`held`).
        package var heldAtEnd: [String] = []

        package init(path: String, rateHz: Double, sent: Int, received: Int, verified: Int? = nil, achievedHz: Double,
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

    package struct PathResult: Sendable {
        package var main: Stream
        package var ladder: [BenchRung]
        /// The highest ladder rate sustained by every repetition, as by every rung below it.
        package var maxSustainedHz: Double?
    }

    package let context: RunContext
    package let settings: Settings

    package init(context: RunContext, settings: Settings) {
        self.context = context
        self.settings = settings
    }

    /// Runs every path; `progress` gets a line per stream as it finishes.
    package func run(progress: @Sendable (String) -> Void) async throws -> [String: PathResult] {
        let folder = context.workDirectory + "/bench"
        let session = try await PairedSession.open(context, folder: folder, networks: Self.networkTransports(settings.paths))
        var sends: [StageBreakdown.Send] = []
        let streams: [(path: String, rung: Double?, run: StreamRun)]
        do {
            streams = try await self.streams(session, folder: folder, sends: &sends, progress: progress)
        } catch {
            await session.close(erred: true)
            throw error
        }
        // Every command is matched to its frame through the computer's receipts (written when it stops, in the link's
        // teardown): its receipt, then the frame the kernel stamped between receipt and the end of that uinput write.
        for problem in await session.close() { progress("teardown: \(problem)") }
        let evidence = Self.evidence(sends: sends, computer: session.computer)
        var results: [String: PathResult] = [:]
        for path in settings.paths {
            let mine = streams.filter { $0.path == path }
            guard let main = mine.first, main.rung == nil else { continue }
            func analysed(_ run: StreamRun) -> Stream { analyse(run, path: path, evidence: evidence) }
            var rungs: [BenchRung] = []
            for entry in mine.dropFirst() {
                guard let rate = entry.rung else { continue }
                if rungs.last?.rateHz != rate { rungs.append(BenchRung(rateHz: rate, required: settings.repetitions, repetitions: [])) }
                rungs[rungs.count - 1].repetitions.append(analysed(entry.run))
            }
            let sustained = rungs.prefix(while: \.sustained).map(\.rateHz).max()
            results[path] = PathResult(main: analysed(main.run), ladder: rungs, maxSustainedHz: sustained)
        }
        for path in settings.paths {
            guard let result = results[path] else { continue }
            progress(line(result.main))
            for rung in result.ladder {
                for step in rung.repetitions { progress("  ladder " + line(step)) }
            }
        }
        return results
    }

    /// Each path's main stream, then its ladder's rungs until one is not kept up with.
    private func streams(_ session: PairedSession, folder: String, sends: inout [StageBreakdown.Send],
                         progress: @Sendable (String) -> Void) async throws -> [(path: String, rung: Double?, run: StreamRun)]
    {
        var streams: [(path: String, rung: Double?, run: StreamRun)] = []
        for path in settings.paths {
            let sender = try await BenchSender.open(path, settings: settings, session: session, folder: folder, context: context)
            defer { sender.close() }
            let dither = settings.dither && sender.meetsRadio ? SendSchedule.streamDither : nil
            let main = try await stream(rate: settings.rateHz, count: settings.count, dither: dither, sender: sender,
                                        computer: session.computer, sends: &sends)
            streams.append((path, nil, main))
            progress("\(path): sent \(main.count) at \(Int(settings.rateHz)) Hz, achieved \(String(format: "%.0f", main.achievedHz)) Hz")
            if let note = sender.note { progress(note) }
            guard settings.findMax else { continue }
            ladder: for rate in settings.ladderHz {
                for repetition in 1...settings.repetitions {
                    let step = try await stream(rate: rate, count: Int(rate * settings.rungSeconds), dither: dither,
                                                sender: sender, computer: session.computer, sends: &sends)
                    streams.append((path, rate, step))
                    progress("  ladder \(path) \(Int(rate)) Hz, \(repetition)/\(settings.repetitions): sent \(step.count), achieved \(String(format: "%.0f", step.achievedHz)) Hz"
                        + (step.blocked > 0 ? ", the socket was full \(step.blocked) time(s)" : ""))
                    // Not kept up with while sending: this rung is not sustained, and no higher one will be.
                    if step.achievedHz < rate * 0.95 || step.blocked > 0 { break ladder }
                }
            }
        }
        return streams
    }

    /// The network transports the computer must serve: those of the paths, hil's own or the reference client's.
    package static func networkTransports(_ paths: [String]) -> [String] {
        ["tcp", "udp"].filter { paths.contains($0) || paths.contains("python-" + $0) }
    }

    /// A rate is sustained when nothing is lost, every command's frame was seen (so injection is proven, not
    /// assumed), at least 95 % of the rate is achieved, and p99 latency stays within 100 ms: a link that falls
    /// behind queues commands (latency grows without bound) before it loses any.
    package static func sustains(_ stream: Stream) -> Bool {
        stream.heldAtEnd.isEmpty && stream.lost == 0 && stream.unseen == 0 && stream.achievedHz >= stream.rateHz * 0.95 && (stream.latency.p99 ?? .infinity) <= 100
    }

    /// What one stream sent: its sends' indices in the run, the rate achieved, how often the socket was full.
    package struct StreamRun {
        package var rate: Double
        package var range: Range<Int>
        package var achievedHz: Double
        package var blocked: Int
        package var readerDrops: Int
        /// The kernel's key state after the stream (EVIOCGKEY).
        package var heldAtEnd: [String] = []
        package var count: Int { range.count }
    }

    /// Each stream that ended with a key or button held, as `dbus at 100 Hz: BTN_LEFT` (main streams and ladder
    /// rungs alike): `hil bench` prints them and exits 1.
    package static func held(_ results: [String: PathResult], paths: [String]) -> [String] {
        paths.compactMap { results[$0] }.flatMap { [$0.main] + $0.ladder.flatMap(\.repetitions) }
            .filter { !$0.heldAtEnd.isEmpty }
            .map { "\($0.path) at \(Int($0.rateHz)) Hz: \($0.heldAtEnd.joined(separator: ", "))" }
    }
}
