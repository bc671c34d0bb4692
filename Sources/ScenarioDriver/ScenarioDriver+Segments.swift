import Foundation
import GestureModel
import InputCodes
import RemoteTouchProtocol
import Verifier
import Records
import Waiting

/// A run of steps judged together: a step with an expectation of its own and the steps without one that follow
/// it (a wait extends the step before).
struct Segment {
    var step: Int
    var expectation: StepExpectation?
    var startedAt: MonotonicTime
    var firstSend: MonotonicTime?
    var commands = 0
    /// Commands the phone did not send because the link was down.
    var unsent = 0
    /// What the step's driving observed, added to its message.
    var note = ""
    var lastStep: Int
}

/// A segment already judged, kept so frames that turn up late can still be judged with it: the next segment's
/// frames stamped before its first command cannot be that segment's.
struct JudgedSegment {
    var closing: Segment
    var matcher: StepMatcher
    /// Where its result is in `results`.
    var resultIndex: Int
}

extension ScenarioDriver {
    /// Hands the gesture model's commands to the link, each stamped when handed over; while the link is down
    /// they are logged as not sent.
    func send(_ outputs: [GestureOutput]) async throws {
        for output in outputs {
            guard let command = output.command else { continue }
            try await jitter()
            try await handOver(String(decoding: command.encoded(), as: UTF8.self)) {
                try await phone.sendStamped(command, confirmed: scenario.run.confirmedWrites)
            }
        }
    }

    /// `run.sendJitterMs`: waits a uniform 0…J ms (from the driver's fixed seed) before a command is handed over, so
    /// the phone's sends leave the gesture model's grid as a busy phone's do; the commands keep their order.
    func jitter() async throws {
        let most = scenario.run.sendJitterMs
        guard most > 0 else { return }
        let microseconds = jitterSource.index(below: Int(most * 1000) + 1)
        try await clock.sleep(for: .microseconds(microseconds))
    }

    /// Hands one write to the link with `write`, stamped when handed over (`commands.log`, the sends matched to the
    /// receipts, the segment's first send); while the link is down it is logged as not sent instead.
    func handOver(_ text: String, write: () async throws -> [SentWrite]) async throws {
        let at = clock.now()
        guard linkUp else {
            commandLog.append("\(at) not sent, the link is down: \(text)\n")
            unsent.append((at, text))
            segment?.unsent += 1
            return
        }
        commandLog.append("\(at) \(text)\n")
        let wire = try await write()
        sends += wire.map { .init(at: ($0.leftHost ?? at).nanoseconds, payload: $0.payload) }
        if segment?.firstSend == nil { segment?.firstSend = at }
        segment?.commands += 1
    }

    /// A hostile phone: `count` malformed payloads as fast as the link takes them. The link queues what the phone
    /// wrote faster than it carries: wait until the computer has received the backlog, from its receipts (flushed
    /// every 250 ms): all `count`, or none new for 3 s (at most 60 s), so the step's checks cover every write.
    /// (Its error statuses are no measure: under a flood the notify socket fills and the surplus is dropped.)
    func sendMalformed(_ count: Int) async throws -> String {
        let started = clock.now()
        for bytes in MalformedPayloads().prefix(count) {
            let at = clock.now()
            try await phone.sendMalformed(bytes)
            commandLog.append("\(at) malformed: \(bytes.count) bytes\n")
            if segment?.firstSend == nil { segment?.firstSend = at }
            segment?.commands += 1
        }
        let sentAll = clock.now()
        try await awaitReceipts(count, since: started)
        let answered = phone.statuses(from: started, to: clock.now()).filter { $0.status.error != nil }.count
        let sendMs = Double(sentAll.nanoseconds - started.nanoseconds) / 1e6
        return "\(count) malformed writes sent in \(Judge.format(sendMs)) ms; \(answered) error status notification(s) came back"
    }

    /// Waits until the computer's receipts (flushed every 250 ms) hold `count` writes received since `start`, or
    /// none new came for 3 s (at most 60 s), so a step's checks cover every write it sent. Each flush is a change.
    func awaitReceipts(_ count: Int, since start: MonotonicTime) async throws {
        let giveUp = clock.now() + .seconds(60)
        var seen = -1
        while clock.now() < giveUp {
            // Until `count` arrived, or 3 s passed without a new one.
            let quietUntil = min(giveUp, clock.now() + .seconds(3))
            let received = try await computer.upTo(quietUntil, on: clock) { () -> Int? in
                let received = computer.receipts().filter { $0.received >= start.nanoseconds }.count
                return received >= count || received != seen ? received : nil
            }
            guard let received, received < count else { return }
            seen = received
        }
    }

    /// Sends, each at its time, what the phone's timers have to send before `limit` (paced motion, a pending
    /// single tap); with no limit, everything it still has to send.
    func runTimers(before limit: Duration? = nil) async throws {
        while let deadline = processor.nextSendDeadline, limit.map({ deadline < $0 }) ?? true {
            try await sleep(until: deadline)
            try await send(processor.advance(to: deadline))
        }
    }

    func appendUnchecked(_ indices: ClosedRange<Int>, commandsOfFirst: Int) {
        for index in indices {
            var evidence = StepEvidence(index: index, kind: scenario.script.steps[index].name,
                                        commands: index == indices.lowerBound ? commandsOfFirst : 0, notes: [stepNotes[index] ?? ""])
            evidence.add(judged: stepProblems[index] != nil, problems: stepProblems[index] ?? [])
            results.append(evidence)
        }
    }

    /// Sends what the phone's timers still have to send (it belongs to this segment), then judges the segment:
    /// frames are fed to the matcher as they arrive until the match is complete and has settled for 50 ms (so
    /// an overshoot or a stray event is seen), or the deadline passed; then everything that arrived is judged.
    ///
    /// A frame stamped before the segment's first command cannot be its own: it is the judged segment before's
    /// (its last event came after that one's 50 ms of quiet), which is judged again with it, so a straggler that
    /// pushes a total out of its tolerance fails the step it belongs to, not the next one.
    func judgeSegment() async throws {
        guard segment != nil else { return }
        try await runTimers()
        guard let closing = segment else { return }
        guard let expectation = closing.expectation, options.judged.contains(.events) else {
            appendUnchecked(closing.step...closing.lastStep, commandsOfFirst: closing.commands)
            lastJudged = nil
            return
        }
        var scaled = expectation
        scaled.withinMs *= options.latencyScale
        if let forMs = scaled.absentForMs { scaled.absentForMs = forMs * options.latencyScale }
        let sentAt = closing.firstSend ?? closing.startedAt
        let deadline = sentAt.nanoseconds + UInt64(scaled.withinMs * 1_000_000)
        var matcher = StepMatcher(scaled, sentAt: sentAt)
        var earlier = lastJudged
        var fed = 0
        var late = 0
        func feedNewFrames() {
            let frames = computer.frames(since: closing.startedAt)
            for frame in frames.dropFirst(fed) {
                if earlier != nil, let first = closing.firstSend, frame.time < first {
                    earlier?.matcher.feed(frame)
                    late += 1
                } else {
                    matcher.feed(frame)
                }
            }
            fed = frames.count
        }
        // Each frame the computer's device shows wakes the loop; so do the settle's end and the deadline.
        while true {
            let seen = computer.changeCount
            feedNewFrames()
            var wake = MonotonicTime(nanoseconds: deadline + 20_000_000)
            if let met = matcher.metBy, !scaled.isAbsenceOnly {
                wake = min(wake, MonotonicTime(nanoseconds: met.time.nanoseconds + 50_000_000))
            }
            if clock.now() >= wake { break }
            try await computer.awaitChange(after: seen, until: wake)
        }
        feedNewFrames()
        coverJudging(closing.step)
        if let earlier, late > 0 { judgeAgain(earlier, late: late, before: closing.step) }
        lastJudged = JudgedSegment(closing: closing, matcher: matcher, resultIndex: results.count)
        results.append(stepResult(closing, matcher.verdict()))
        if closing.lastStep > closing.step {
            appendUnchecked((closing.step + 1)...closing.lastStep, commandsOfFirst: 0)
        }
    }

    /// When a step's events were judged (`Drive.shownWindows`: a tap's command leaves 300 ms after the touch, and its
    /// frames after that, so the timeline's bar for the step runs on to here).
    private func coverJudging(_ step: Int) {
        judgedAt[step] = clock.now()
    }

    /// Judges a segment again with the `late` frames that came after it was judged but were stamped before step
    /// `steps[next]`'s first command, and says so in its message.
    private func judgeAgain(_ judged: JudgedSegment, late: Int, before next: Int) {
        var closing = judged.closing
        let moved = "\(late) frame(s) that arrived after this step was judged, stamped before steps[\(next)]'s first "
            + "command, are judged with this step"
        closing.note = [closing.note, moved].filter { !$0.isEmpty }.joined(separator: "\n")
        results[judged.resultIndex] = stepResult(closing, judged.matcher.verdict())
    }

    /// A judged segment's evidence: the matcher's verdict on its events (standing for nothing when the kernel dropped
    /// events), what was not sent, and what its step did.
    private func stepResult(_ closing: Segment, _ verdict: StepVerdict) -> StepEvidence {
        let unsent = closing.unsent == 0 ? "" : "\(closing.unsent) command(s) not sent: the link was down"
        var step = StepEvidence(index: closing.step, kind: scenario.script.steps[closing.step].name, commands: closing.commands,
                                notes: [unsent, closing.note])
        step.latencyMs = verdict.latency?.milliseconds
        if computer.droppedEvents || verdict.outcome == .inconclusive {
            step.judged = true
            step.inconclusive = true
            step.withheld = [verdict.message].filter { !$0.isEmpty }
        } else {
            step.add(judged: true, problems: verdict.outcome == .passed ? [] : [verdict.message])
            if verdict.outcome == .passed, !verdict.message.isEmpty { step.notes.insert(verdict.message, at: 0) }
        }
        step.add(judged: stepProblems[closing.step] != nil, problems: stepProblems[closing.step] ?? [])
        if let latency = verdict.latency, let first = closing.firstSend {
            step.firstSendNs = first.nanoseconds
            step.completedNs = first.nanoseconds + UInt64(max(0, latency.components.seconds)) * 1_000_000_000
                + UInt64(max(0, latency.components.attoseconds / 1_000_000_000))
        }
        return step
    }
}
