import Foundation
import LatencyStats
package import ScenarioDriver
package import ComputerProcess

extension BenchRunner {
    /// Streams `count` commands at `rate` through `sender` (dithered with that seed when `dither` is set), then
    /// waits for the last frames. Command i carries the delta `1 + i % 997`, so every payload of a stream differs
    /// and each receipt matches exactly one send.
    package func stream(rate: Double, count: Int, dither: UInt64? = nil, sender: BenchSender, computer: PeripheralComputer,
                sends: inout [StageBreakdown.Send]) async throws -> StreamRun
    {
        // Let the previous stream's last frames land: no new frame for 300 ms (at most 5 s).
        try await computer.framesSettled(quiet: .milliseconds(300), timeout: .seconds(5))
        let first = sends.count
        let dropsBefore = computer.droppedCount
        let sent = try await sender.send(rate: rate, count: count, dither: dither, sends: &sends)
        guard sends.count > first else { throw BenchError(.link, "\(sender.path): no command was sent") }
        // Wait for stragglers: until no new frame for 300 ms (at most 5 s).
        try await computer.framesSettled(quiet: .milliseconds(300), timeout: .seconds(5))
        return StreamRun(rate: rate, range: first..<sends.count, achievedHz: sent.achievedHz, blocked: sent.blocked,
                         readerDrops: computer.droppedCount - dropsBefore, heldAtEnd: computer.heldKeys())
    }

    /// What a run's streams are judged against once the computer has stopped: its receipts (written as it stops),
    /// each send's receipt, and the kernel's stamps of the cursor frames the reader saw, in time order.
    package struct Evidence {
        package var sends: [StageBreakdown.Send]
        package var receipts: [StageBreakdown.Receipt]
        package var alignment: [Int: Int]
        package var frameTimes: [UInt64]
    }

    /// The evidence of every stream sent, once the computer has stopped (its receipts are complete then).
    package static func evidence(sends: [StageBreakdown.Send], computer: PeripheralComputer) -> Evidence {
        let receipts = computer.receipts()
        let frameTimes = computer.allFrames.filter { $0.events.contains { $0.code == .relX } }
            .map(\.time.nanoseconds).sorted()
        return Evidence(sends: sends, receipts: receipts, alignment: StageBreakdown.align(sends, receipts), frameTimes: frameTimes)
    }

    package func analyse(_ run: StreamRun, path: String, evidence: Evidence) -> Stream {
        analyse(run, path: path, sends: evidence.sends, receipts: evidence.receipts, alignment: evidence.alignment,
                frameTimes: evidence.frameTimes)
    }

    /// Each send's latency: its receipt (aligned), then the first frame stamped at or after the receipt and no
    /// later than the end of the uinput write; a send without both is lost. Stages: link (handed to the link →
    /// received) and peripheral (received → uinput write returned).
    package func analyse(_ run: StreamRun, path: String, sends: [StageBreakdown.Send], receipts: [StageBreakdown.Receipt],
                 alignment: [Int: Int], frameTimes: [UInt64]) -> Stream
    {
        var latency = LatencyRecorder()
        var link = LatencyRecorder()
        var peripheral = LatencyRecorder()
        var received = 0
        var verified = 0
        var samples: [Double] = []
        samples.reserveCapacity(run.count)
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
            samples.append((frame - Double(sends[index].at)) / 1e6)
            latency.record(samples[samples.count - 1])
            link.record((Double(receipt.received) - Double(sends[index].at)) / 1e6)
            peripheral.record((Double(written) - Double(receipt.received)) / 1e6)
        }
        var stream = Stream(path: path, rateHz: run.rate, sent: run.count, received: received, verified: verified,
                            achievedHz: run.achievedHz, latency: latency.summary,
                            stages: ["link": link.summary, "peripheral": peripheral.summary])
        stream.lostAt = Self.ranges(missing)
        stream.unseenAt = Self.ranges(unseen)
        stream.readerDrops = run.readerDrops
        stream.heldAtEnd = run.heldAtEnd
        stream.latencySamples = samples
        return stream
    }

    /// `[0, 1, 2, 7]` → `"0-2, 7"`.
    package static func ranges(_ indices: [Int]) -> String {
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

    package func line(_ stream: Stream) -> String {
        let l = stream.latency
        func f(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "-" }
        return "\(stream.path): \(stream.sent) at \(Int(stream.rateHz)) Hz → achieved \(String(format: "%.0f", stream.achievedHz)) Hz, lost \(stream.lost)\(stream.lostAt.isEmpty ? "" : " (#\(stream.lostAt))"), unseen \(stream.unseen)\(stream.unseenAt.isEmpty ? "" : " (#\(stream.unseenAt))")\(stream.readerDrops > 0 ? ", SYN_DROPPED ×\(stream.readerDrops)" : ""), p50 \(f(l.p50)) p95 \(f(l.p95)) p99 \(f(l.p99)) max \(f(l.max)) ms\(stream.heldAtEnd.isEmpty ? "" : ", HELD AT THE END: " + stream.heldAtEnd.joined(separator: ", "))"
    }
}
