package import InputCodes
import System

/// Matches the frames a step produced against its expectation, as they arrive.
///
/// `feed` says when the expectation is first met (that frame's time, minus the send time, is the step's
/// latency); `verdict` judges the whole step once it is over, so motion that overshoots after meeting its
/// total, an extra event under "nothing else", or a match after the deadline still fail.
package struct StepMatcher: Sendable {
    package let expectation: StepExpectation
    /// When the step's first command was handed to the link.
    package let sentAt: MonotonicTime
    package private(set) var frames: [EvdevFrame] = []
    /// The frame that first met the expectation.
    package private(set) var metBy: EvdevFrame?
    private var progress: MatchProgress

    package init(_ expectation: StepExpectation, sentAt: MonotonicTime) {
        self.expectation = expectation
        self.sentAt = sentAt
        progress = MatchProgress(expectation)
    }

    /// The latest time the match may complete.
    package var deadline: MonotonicTime {
        MonotonicTime(nanoseconds: sentAt.nanoseconds + UInt64(max(0, expectation.withinMs) * 1_000_000))
    }

    /// Adds a frame; returns true once the expectation is met (and stays met as far as is known yet).
    @discardableResult
    package mutating func feed(_ frame: EvdevFrame) -> Bool {
        frames.append(frame)
        progress.add(frame.frame)
        if metBy == nil && !expectation.isAbsenceOnly && progress.isMet {
            metBy = frame
        }
        return metBy != nil
    }

    /// Judges the step with everything that arrived.
    package func verdict() -> StepVerdict {
        var found = problems()
        if expectation.isAbsenceOnly {
            return StepVerdict(outcome: found.isEmpty ? .passed : .failed, latency: nil, message: report(found), frames: frames)
        }
        guard let metBy else {
            // The most specific reason first (what came instead, what is missing: the line CI shows), then the time.
            let late = "not met within \(format(expectation.withinMs)) ms"
            found = found.isEmpty ? [late + ": nothing completed the match"] : found + [late]
            return StepVerdict(outcome: .failed, latency: nil, message: report(found), frames: frames)
        }
        let latency = metBy.time - sentAt
        if metBy.time > deadline {
            found.insert("met after \(format(milliseconds(latency))) ms, past the \(format(expectation.withinMs)) ms deadline", at: 0)
        }
        return StepVerdict(outcome: found.isEmpty ? .passed : .failed, latency: latency, message: report(found), frames: frames)
    }

    // MARK: Checks

    /// What is wrong with, or still missing from, the frames so far (`MatchProgress` knows, frame by frame, whether
    /// this is empty), each wrong event with its time after the send (`+13 ms`).
    func problems() -> [String] {
        var found: [String] = []
        let events = frames.flatMap(\.events)
        var accounted = Set<EventCode>()

        if let keys = expectation.keys {
            let got = frames.flatMap { frame in frame.events.map { (event: $0, at: frame.time) } }
                .filter { $0.event.code.type == .key && !(expectation.allowRepeat && $0.event.value == 2) }
            for (index, key) in got.enumerated() {
                guard index < keys.count else {
                    found.append("an extra key event: \(key.event) at \(offset(key.at)) after the \(keys.count) expected")
                    break
                }
                if key.event != keys[index] {
                    found.append("key event \(index + 1): expected \(keys[index]), got \(key.event) at \(offset(key.at))")
                    break
                }
            }
            if found.isEmpty && got.count < keys.count {
                found.append("\(got.count) of \(keys.count) key events arrived")
            }
            keys.forEach { accounted.insert($0.code) }
        }

        if let expectedFrames = expectation.frames {
            var next = 0
            for frame in frames where next < expectedFrames.count {
                if Set(frame.events) == Set(expectedFrames[next].events) {
                    next += 1
                } else if expectation.nothingElse {
                    found.append("frame \(frame.frame) at \(offset(frame.time)) where \(expectedFrames[next]) was expected")
                    break
                }
            }
            if next < expectedFrames.count { found.append("\(next) of \(expectedFrames.count) expected frames arrived") }
            expectedFrames.flatMap(\.events).forEach { accounted.insert($0.code) }
        }

        for (axis, check) in expectation.motion.sorted(by: { $0.key.code < $1.key.code }) {
            let sum = events.filter { $0.code == axis }.reduce(0) { $0 + Int($1.value) }
            if !check.accepts(sum) {
                found.append("\(axis) total \(sum), expected \(check)")
            }
            accounted.insert(axis)
        }

        for type in expectation.absentTypes {
            if let event = events.first(where: { $0.code.type == type }) {
                found.append("\(type) event \(event) during a step that expects none")
            }
        }

        if expectation.nothingElse {
            if let stray = events.first(where: { !accounted.contains($0.code) }) {
                found.append("unexpected \(stray) (the step allows nothing else)")
            }
        }
        return found
    }

    // MARK: Report

    private func report(_ problems: [String]) -> String {
        guard !problems.isEmpty else { return "" }
        var lines = problems
        lines.append("expected: \(describeExpectation()) within \(format(expectation.withinMs)) ms")
        if frames.isEmpty {
            lines.append("actual:   no events")
        } else {
            for (index, frame) in frames.prefix(30).enumerated() {
                lines.append("\(index == 0 ? "actual:  " : "         ") \(offset(frame.time)) \(frame.frame)")
            }
            if frames.count > 30 { lines.append("          … \(frames.count - 30) more frames") }
        }
        return lines.joined(separator: "\n")
    }

    private func describeExpectation() -> String {
        var parts: [String] = []
        if let keys = expectation.keys { parts.append(keys.map(\.description).joined(separator: ", ")) }
        if let frames = expectation.frames { parts.append(frames.map(\.description).joined(separator: " ")) }
        for (axis, check) in expectation.motion.sorted(by: { $0.key.code < $1.key.code }) { parts.append("\(axis) \(check)") }
        if !expectation.absentTypes.isEmpty {
            parts.append("no " + expectation.absentTypes.map(\.description).joined(separator: "/") + " events")
        }
        if expectation.nothingElse { parts.append("nothing else") }
        return parts.isEmpty ? "(nothing in particular)" : parts.joined(separator: "; ")
    }

    /// A frame's time after the send: `+13 ms`.
    private func offset(_ time: MonotonicTime) -> String {
        "+\(format(milliseconds(time - sentAt))) ms"
    }

    private func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// To a tenth, without a fraction when whole: `12.3`, `300`.
    private func format(_ value: Double) -> String { NumberText.plain((value * 10).rounded() / 10) }
}
