import Foundation
import LatencyStats
import System
package import GestureModel
package import InputCodes

/// Every verdict beyond the evdev frames (those are `StepMatcher`'s): each function returns the problems, empty
/// when the expectation holds, with expected and actual side by side. `scale` is the rig's latency scale, which
/// multiplies every time limit.
package enum Judge {
    /// The status notifications a step received (R5).
    package static func status(_ expectation: StatusExpectation, _ received: [StatusObservation], scale: Double) -> [String] {
        var problems: [String] = []
        if received.count < expectation.atLeast {
            problems.append("\(received.count) status notification(s) during the step, expected at least \(expectation.atLeast)")
        }
        if let every = expectation.everyMs {
            let tolerance = expectation.toleranceMs * scale
            for (earlier, later) in zip(received, received.dropFirst()) {
                let gap = Double(later.at.nanoseconds - earlier.at.nanoseconds) / 1_000_000
                if abs(gap - every) > tolerance {
                    problems.append("status notifications \(format(gap)) ms apart, expected \(format(every)) ± \(format(tolerance)) ms")
                }
            }
        }
        for code in expectation.errors where !received.contains(where: { $0.status.error?.code == code }) {
            let seen = received.compactMap { $0.status.error?.code }
            problems.append("no error status with \(code) during the step, expected one (error statuses seen: \(seen.isEmpty ? "none" : seen.joined(separator: ", ")))")
        }
        for notification in received {
            let level = notification.status.batteryLevel
            if !(0...100).contains(level) { problems.append("battery level \(level) is outside 0–100") }
            if let wanted = expectation.batteryLevel, wanted != level { problems.append("battery level \(level), expected \(wanted)") }
        }
        if !problems.isEmpty {
            let list = received.map { "battery \($0.status.batteryLevel)" }.joined(separator: ", ")
            problems.append("received: " + (received.isEmpty ? "none" : list))
        }
        return problems
    }

    /// The count of each command kind the computer received during a step (R11.2: what crossed the link);
    /// `refused` counts every write it refused.
    package static func received(_ wanted: [String: Int], _ writes: [ReceivedWrite]) -> [String] {
        var counts: [String: Int] = [:]
        for write in writes {
            if let command = write.command { counts[command, default: 0] += 1 }
            if write.refused { counts["refused", default: 0] += 1 }
        }
        return wanted.keys.sorted().compactMap { name in
            let got = counts[name] ?? 0
            return got == wanted[name] ? nil : "the computer received \(got) \(name) command(s) during the step, expected \(wanted[name]!)"
        }
    }

    /// What a `pair` step led to (R4).
    package static func pairing(_ expectation: PairingExpectation, _ seen: PairingObservation) -> [String] {
        var problems: [String] = []
        let status = seen.status
        if status.state != expectation.state {
            problems.append("pairing state \(status.state.rawValue), expected \(expectation.state.rawValue)")
        }
        if let left = expectation.attemptsRemaining, left != status.attemptsRemaining {
            problems.append("\(status.attemptsRemaining) attempt(s) left, expected \(left)")
        }
        if let most = expectation.secondsRemainingAtMost {
            if let seconds = status.secondsRemaining {
                if seconds > most { problems.append("\(seconds) s remaining, expected at most \(most)") }
            } else {
                problems.append("no secondsRemaining in the pairing state, expected at most \(most) s")
            }
        }
        if let refused = expectation.refused, refused != (seen.refusal != nil) {
            problems.append(refused
                ? "the computer accepted the code, expected a refusal"
                : "the computer refused the code (\(seen.refusal ?? "")), expected it accepted")
        }
        return problems
    }

    /// Why a `pair` step that expected the lockout and did not see it is inconclusive rather than failed: its code
    /// was sent (`codeSentAt`) after the lockout had surely run out, so the rig took longer between the two steps
    /// (a restart, a loaded machine) than the lockout lasts, and nothing can be concluded about the computer. Nil
    /// when the step is judged as usual: the lockout was not expected, was seen, or may still have been running.
    package static func lockoutRanOut(_ expectation: PairingExpectation, _ seen: PairingObservation, lockout: LockoutWindow?,
                                     codeSentAt: MonotonicTime) -> String?
    {
        guard expectation.state == .lockedOut, seen.status.state != .lockedOut, let lockout,
              codeSentAt - lockout.lockedBy >= lockout.lockout
        else { return nil }
        let seconds = lockout.lockout / .seconds(1)
        let between = (codeSentAt - lockout.lockedBy) / .seconds(1)
        return "inconclusive: the code was sent \(format(between)) s after the phone learned that pairing was locked, and the lockout lasts "
            + "\(format(seconds)) s (run.lockoutSeconds), so it had run out: the rig was too slow between the steps to test it. "
            + "Run the scenario on a less loaded machine, or give it a longer run.lockoutSeconds"
    }

    /// A link step (R12): what the computer still holds once the link is down (always judged: a drop releases
    /// everything), and, with an expectation, what the phone shows, its tries and how long it took.
    package static func link(_ expectation: LinkExpectation?, _ seen: LinkObservation, scale: Double) -> [String] {
        if let refusal = seen.refusal { return [refusal] }
        var problems: [String] = []
        if !seen.stillHeld.isEmpty {
            problems.append("the computer still holds \(seen.stillHeld.joined(separator: ", ")) after the link went down (R12: a drop releases everything)")
        }
        guard let expectation else { return problems }
        let shown = seen.connected ? "connected" : "disconnected"
        let wanted = expectation.outcome == .disconnected ? "disconnected" : "connected"
        if shown != wanted { problems.append("the phone shows \(shown), expected \(wanted)") }
        if expectation.outcome == .stayedUp, seen.wentDown { problems.append("the link went down, expected it to stay up") }
        if expectation.outcome == .reconnected, !seen.wentDown { problems.append("the link never went down, expected it to drop and the phone to reconnect") }
        if let most = expectation.attemptsAtMost, seen.attempts > most { problems.append("\(seen.attempts) tries, expected at most \(most)") }
        if let within = expectation.servingWithinMs {
            let limit = format(within * scale)
            if let serving = seen.servingMs {
                if serving > within * scale {
                    problems.append("the computer served again \(format(serving)) ms after bluetoothd started, expected within \(limit) ms")
                }
            } else {
                problems.append("the computer did not serve again (no active advertisement), expected within \(limit) ms")
            }
        }
        if let within = expectation.withinMs, seen.elapsedMs > within * scale {
            problems.append("\(format(seen.elapsedMs)) ms from the step's start, expected within \(format(within * scale)) ms")
        }
        return problems
    }

    /// The phone's state at the end of a step (R11).
    package static func phone(_ wanted: Activity, _ actual: Activity?) -> [String] {
        actual == wanted ? [] : ["the phone is \(actual?.rawValue ?? "unknown") at the end of the step, expected \(wanted.rawValue)"]
    }

    /// The phone's remembered computers after connecting (R6).
    package static func devices(_ expectation: DevicesExpectation, _ seen: DevicesObservation) -> [String] {
        var problems: [String] = []
        if let count = expectation.count, seen.addresses.count != count {
            problems.append("the phone remembers \(seen.addresses.count) computers, expected \(count)")
        }
        for address in expectation.evicted where seen.addresses.contains(address) {
            problems.append("\(address) should have been evicted (evicted: \(seen.evicted ?? "none"))")
        }
        if !seen.addresses.contains(seen.connected) {
            problems.append("the connected computer \(seen.connected) is not remembered")
        }
        return problems
    }

    /// Scenario-wide latency limits against the steps' latencies: p95 as HdrHistogram gives it (`LatencyRecorder`, the
    /// one percentile definition of the console, results.json and the reports), the maximum exact.
    package static func limits(_ limits: LatencyLimits, latencies: [Double], scale: Double) -> [String] {
        var problems: [String] = []
        let summary = LatencyRecorder(latencies).summary
        if let p95 = limits.p95Ms, let measured = summary.p95, measured > p95 * scale {
            problems.append("p95 latency \(format(measured)) ms is over the limit \(format(p95 * scale)) ms (\(format(p95)) × rig scale \(format(scale)))")
        }
        if let max = limits.maxMs, let measured = summary.max, measured > max * scale {
            problems.append("max latency \(format(measured)) ms is over the limit \(format(max * scale)) ms (\(format(max)) × rig scale \(format(scale)))")
        }
        return problems
    }

    /// A number in a verdict's or a step's message: one decimal ("12.5"), the same in every message of a run.
    package static func format(_ value: Double) -> String { NumberText.oneDecimal(value) }
}
