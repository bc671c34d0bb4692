package import ScenarioDriver
import PhoneLinks
package import InputCodes
import Foundation
package import LatencyStats
import RemoteTouchProtocol
package import RunContext
import System

/// `hil soak`: cursor commands at a steady rate through the real link for many minutes, with a report every
/// minute: sent, verified (its evdev frame seen), lost, latency p50/p99, and the computer's resident memory.
package struct SoakRunner: Sendable {
    package struct Minute: Sendable {
        package var minute: Int
        package var sent: Int
        package var verified: Int
        package var latency: LatencySummary
        /// The computer side's VmRSS at the end of the minute, KiB.
        package var residentKiB: Int?
        /// Sent this minute but not seen as a frame (lost by the link, or missed by the evdev reader).
        package var unverified: Int { max(0, sent - verified) }
    }

    package struct Summary: Sendable {
        package var minutes: [Minute]
        /// From the computer's receipts at the end: commands it never received (lost by the link).
        package var lostByLink: Int
        package var sent: Int
        package var readerDrops: Int
        /// The kernel's key state after the last minute's frames (EVIOCGKEY): anything here fails the soak.
        package var heldAtEnd: [String] = []
        /// How the sends were timed (soak.json's `pacing`).
        package var pacing = ""
    }

    package let context: RunContext

    package init(context: RunContext) {
        self.context = context
    }

    /// Streams for `duration` in minutes of 60 s, the last one shorter when `duration` is not whole minutes.
    /// `dither`: each send at a uniform offset within its slot (`SendSchedule`), so the stream meets the radio's
    /// events at even phases; false: on the grid.
    package func run(duration: Duration, rateHz: Double, path: String, dither: Bool = true,
                     report: @Sendable (Minute) -> Void) async throws -> Summary
    {
        let folder = context.workDirectory + "/soak"
        let session = try await PairedSession.open(context, folder: folder)
        let streamed: (sends: [StageBreakdown.Send], minutes: [Minute], held: [String])
        do {
            streamed = try await streamMinutes(session, duration: duration, rateHz: rateHz, path: path, dither: dither, report: report)
        } catch {
            await session.close(erred: true)
            throw error
        }
        // The link's teardown stops the computer, which writes its receipts.
        await session.close()
        let sends = streamed.sends, alignment = StageBreakdown.align(sends, session.computer.receipts())
        return Summary(minutes: streamed.minutes, lostByLink: sends.count - alignment.count, sent: sends.count,
                       readerDrops: session.computer.droppedCount, heldAtEnd: streamed.held,
                       pacing: SendSchedule.pacing(dithered: dither, rate: rateHz, which: path))
    }

    /// Streams the soak's minutes, reporting each; what was sent, each minute, and what the kernel held at the end.
    private func streamMinutes(_ session: PairedSession, duration: Duration, rateHz: Double, path: String, dither: Bool,
                         report: @Sendable (Minute) -> Void) async throws
        -> (sends: [StageBreakdown.Send], minutes: [Minute], held: [String])
    {
        let (phone, computer) = (session.phone, session.computer)
        let socket: FileDescriptor? = path == "fd" ? FileDescriptor(owning: try await phone.central.acquireWrite(try phone.connected().command).fd) : nil
        defer { socket?.close() }
        var sends: [StageBreakdown.Send] = []
        var results: [Minute] = []
        var index = 0
        var heads: [Int32: Int] = [:]  // per REL_X value, how many of its frames are matched already
        for (minute, length) in Self.minutes(of: duration).enumerated().map({ ($0.offset + 1, $0.element) }) {
            let minuteStart = sends.count
            let schedule = SendSchedule(rate: rateHz, dither: dither ? SendSchedule.streamDither &+ UInt64(minute) : nil)
            var tick = 0
            while ContinuousClock.now < schedule.origin + length {
                try await schedule.wait(for: tick)
                tick += 1
                let command = Command.cursorMove(delta: Point(x: Double(1 + index % 997), y: 0))
                let at = MonotonicTime.now()
                if let socket {
                    let bytes = command.encoded()
                    try AcquiredSocket.write(socket.rawValue, bytes, what: "cursor command \(index)")
                    sends.append(.init(at: at.nanoseconds, payload: String(decoding: bytes, as: UTF8.self)))
                } else {
                    sends += try await phone.send(command, confirmed: false).map { .init(at: at.nanoseconds, payload: $0) }
                }
                index += 1
            }
            // Frames of this minute's commands, once the last ones have landed (no new frame for 300 ms, at most
            // 5 s; the stream pauses meanwhile).
            try await computer.framesSettled(quiet: .milliseconds(300), timeout: .seconds(5))
            let frames = computer.allFrames
            var latency = LatencyRecorder()
            let matches = Self.match(sends[minuteStart...], frames: frames, heads: &heads)
            for (send, frame) in matches {
                latency.record(Double(frames[frame].time.nanoseconds - sends[send].at) / 1e6)
            }
            let entry = Minute(minute: minute, sent: sends.count - minuteStart, verified: matches.count, latency: latency.summary,
                               residentKiB: computer.current.residentKiB())
            results.append(entry)
            report(entry)
        }
        // Before the phone goes: the computer releases everything when the link does.
        return (sends, results, computer.heldKeys())
    }

    /// The soak's minutes: 60 s each, and what is left of `duration` as a last, shorter one.
    package static func minutes(of duration: Duration) -> [Duration] {
        let whole = Int(duration / .seconds(60))
        let rest = duration - .seconds(60) * whole
        return Array(repeating: .seconds(60), count: whole) + (rest > .zero ? [rest] : [])
    }

    /// Each send's frame: the first unmatched frame with the send's REL_X value (each command moves by its own
    /// value, 1…997, repeating), stamped at or after the send. Matched per value, not in one order: bluetoothd
    /// delivers some writes out of order, and an in-order match counted those as unverified. A lost command
    /// leaves its send unmatched without shifting the others. `heads` carries, per value, how many of its frames
    /// (in collector order) earlier calls matched or passed over.
    package static func match(_ sends: ArraySlice<StageBreakdown.Send>, frames: [EvdevFrame], heads: inout [Int32: Int]) -> [(send: Int, frame: Int)] {
        let keyed = sends.map { (key: Self.value(of: $0.payload), at: $0.at) }
        let values = frames.map { frame -> (key: Int32?, at: UInt64) in
            let only = frame.events.count == 1 && frame.events[0].code == .relX ? frame.events[0].value : nil
            return (only, frame.time.nanoseconds)
        }
        return StageBreakdown.pairInOrder(keyed, values, heads: &heads)
            .map { (send: sends.startIndex + $0.key, frame: $0.value) }
            .sorted { $0.send < $1.send }
    }

    /// The REL_X a soak command moves by: `{"cursorMove":{"delta":[17,0]}}` → 17.
    package static func value(of payload: String) -> Int32? {
        payload.split(separator: "[").last?.split(separator: ",").first.flatMap { Int32($0) }
    }
}
