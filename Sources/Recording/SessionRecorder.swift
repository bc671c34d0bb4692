import GestureScript
package import InputCodes
package import Scenario
import StrictJSON
import Verifier

/// Turns a recorded session into a scenario (docs/recording.md): from the computer's receipts (what it received,
/// `receipts.log`) and the frames its input device gave (`evdev.log`), a `send` step per segment of commands — split
/// at idle gaps — with the expectation derived from the frames between its first receipt and the next segment's,
/// and `wait` steps for the gaps. What the computer refused (writes before pairing, malformed ones, udp packets from
/// another source) is left out; pairing, pings and udp binding never reach the receipts, so codes, ports and
/// addresses cannot reach a recording. Pure: no files, no clock.
package struct SessionRecorder: Sendable {
    package struct Options: Sendable {
        /// The transport the session was recorded on, where the scenario replays.
        package var transport: Transport
        package var name: String?
        /// An idle time at least this long between two writes starts a new segment (a new step).
        package var gap: Duration = .milliseconds(Int64(SessionRecorder.defaultGapMs))
        /// Of each relative axis's total.
        package var tolerancePercent = SessionRecorder.defaultTolerancePercent
        /// The receipts log's name in messages.
        package var receiptsFile = "receipts.log"
        /// Where the session came from, for the scenario's description.
        package var source = "a recorded session"

        package init(transport: Transport) {
            self.transport = transport
        }
    }

    package static let defaultGapMs = 500
    package static let defaultTolerancePercent = 10.0
    /// The longest wait step; a longer idle time becomes several.
    static let longestWait = Duration.seconds(600)

    /// The scenario and what went into it.
    package struct Recording: Sendable {
        package var scenario: RecordedScenario
        /// Writes the computer carried out (send items), and writes it refused (left out).
        package var commands: Int
        package var refused: Int
        package var segments: Int
        /// Frames that came before the first write (no step owns them).
        package var framesBefore: Int
    }

    package let options: Options

    package init(_ options: Options) {
        self.options = options
    }

    /// - Throws: `RecordingError` when nothing was carried out, for a write that cannot be replayed (a payload the
    ///   receipts log cut, another transport's report), and for an event no expectation can name.
    package func record(_ receipts: [RecordedReceipt], frames: [EvdevFrame]) throws(RecordingError) -> Recording {
        var writes: [(received: UInt64, payload: SendPayload)] = []
        var refused = 0
        for receipt in receipts {
            if let payload = try receipt.payload(transport: options.transport, file: options.receiptsFile) {
                writes.append((receipt.receipt.received, payload))
            } else {
                refused += 1
            }
        }
        writes = writes.enumerated().sorted { ($0.element.received, $0.offset) < ($1.element.received, $1.offset) }.map(\.element)
        guard let first = writes.first else {
            throw RecordingError(.nothingToRecord, "\(options.receiptsFile): the computer carried out no write (\(refused) refused): nothing to record; pair the phone and use it while recording")
        }
        let segments = split(writes.map(\.received))
        var steps: [RecordedScenario.Step] = []
        for (index, range) in segments.enumerated() {
            let start = writes[range.lowerBound].received
            let end = index + 1 < segments.count ? writes[segments[index + 1].lowerBound].received : UInt64.max
            let items = writes[range].map { SendItem(at: .microseconds(Int64(($0.received - start) / 1000)), $0.payload) }
            // evdev stamps frames to the microsecond, receipts to the nanosecond: windows start on the microsecond.
            let owned = frames.filter { $0.time.nanoseconds >= start / 1000 * 1000 && $0.time.nanoseconds < end / 1000 * 1000 }
            let spanMs = Double(writes[range.upperBound - 1].received - start) / 1e6
            let expectation: StepExpectation
            do {
                expectation = try DerivedExpectation.from(
                    owned, start: MonotonicTime(nanoseconds: start), spanMs: spanMs, tolerancePercent: options.tolerancePercent)
            } catch {
                throw RecordingError(error.code, "segment \(index + 1) (from \(options.receiptsFile) line \(receipts.first { $0.receipt.received == start }?.line ?? 0)): \(error.what)")
            }
            steps.append(.send(items, expect: expectation))
            let idle = index + 1 < segments.count ? Duration.nanoseconds(Int64(end - writes[range.upperBound - 1].received)) : options.gap
            steps += waits(idle)
        }
        let scenario = RecordedScenario(
            name: options.name ?? "recorded session on \(options.transport.rawValue)",
            description: description(commands: writes.count, segments: segments.count),
            transport: options.transport, steps: steps)
        let before = frames.filter { $0.time.nanoseconds < first.received / 1000 * 1000 }.count
        return Recording(scenario: scenario, commands: writes.count, refused: refused, segments: segments.count, framesBefore: before)
    }

    /// Index ranges of writes (times sorted) with less than `gap` between neighbours: the segments.
    package func split(_ times: [UInt64]) -> [Range<Int>] {
        guard !times.isEmpty else { return [] }
        let gap = UInt64(max(0, gap(options.gap)))
        var ranges: [Range<Int>] = []
        var start = 0
        for index in 1..<max(1, times.count) where times[index] - times[index - 1] >= gap {
            ranges.append(start..<index)
            start = index
        }
        ranges.append(start..<times.count)
        return ranges
    }

    private func gap(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The idle time as wait steps of at most `longestWait`, to the microsecond.
    private func waits(_ idle: Duration) -> [RecordedScenario.Step] {
        var left = Duration.microseconds(gap(idle) / 1000)
        var steps: [RecordedScenario.Step] = []
        while left > .zero {
            let wait = min(left, Self.longestWait)
            steps.append(.wait(wait))
            left -= wait
        }
        return steps
    }

    private func description(commands: Int, segments: Int) -> String {
        "Recorded with hil record from \(options.source) on \(options.transport.rawValue): \(commands) write(s) in \(segments) segment(s), "
            + "split at idle gaps of \(gap(options.gap) / 1_000_000) ms; each segment expects the key and button events that came out, "
            + "exactly and in order, the motion totals within \(JSONWriter.numberText(options.tolerancePercent)) %, and nothing else."
    }
}
