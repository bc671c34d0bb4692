import Foundation
import InputCodes
import LatencyStats
import RemoteTouchProtocol
import Testing
import Verifier

@Suite("Status notifications judged against a step's status expectation (R5)")
struct StatusJudgeTests {
    static func notifications(_ gapsMs: [Double], battery: Int = 100) -> [StatusObservation] {
        var at: UInt64 = 1_000_000_000
        let status = StatusData(batteryLevel: battery, timestamp: 0, connectionQuality: 90)
        var list = [StatusObservation(at: MonotonicTime(nanoseconds: at), status: status)]
        for gap in gapsMs {
            at += UInt64(gap * 1_000_000)
            list.append(StatusObservation(at: MonotonicTime(nanoseconds: at), status: status))
        }
        return list
    }

    @Test("every 2 s within the tolerance passes; a gap outside it, too few, or the wrong battery level fails with why")
    func judge() {
        let expectation = StatusExpectation(atLeast: 2, everyMs: 2000, toleranceMs: 100, batteryLevel: 100)
        #expect(Judge.status(expectation, Self.notifications([2050, 1950]), scale: 1) == [])
        #expect(Judge.status(expectation, Self.notifications([2150]), scale: 1).first == "status notifications 2150.0 ms apart, expected 2000.0 ± 100.0 ms")
        // The rig's latency scale widens the tolerance.
        #expect(Judge.status(expectation, Self.notifications([2150]), scale: 2) == [])
        #expect(Judge.status(expectation, Self.notifications([]), scale: 1).first == "1 status notification(s) during the step, expected at least 2")
        #expect(Judge.status(expectation, Self.notifications([2000], battery: 42), scale: 1).contains("battery level 42, expected 100"))
    }

    @Test("an error code expected in the step's statuses: seen passes; missing fails naming what came instead")
    func errors() {
        var expectation = StatusExpectation(atLeast: 1)
        expectation.errors = ["notPaired"]
        let plain = Self.notifications([2000])
        #expect(Judge.status(expectation, plain, scale: 1).first == "no error status with notPaired during the step, expected one (error statuses seen: none)")
        var refusal = plain
        refusal[1].status = StatusData(batteryLevel: 100, timestamp: 0, connectionQuality: 90, error: StatusError(.notPaired, "not paired"))
        #expect(Judge.status(expectation, refusal, scale: 1) == [])
        expectation.errors = ["lockedOut"]
        #expect(Judge.status(expectation, refusal, scale: 1).first == "no error status with lockedOut during the step, expected one (error statuses seen: notPaired)")
    }
}

@Suite("The verdicts beyond frames: received commands, pairing, link, phone, devices, limits")
struct JudgeTests {
    static func write(_ command: String?, refused: Bool = false) -> ReceivedWrite {
        ReceivedWrite(at: MonotonicTime(nanoseconds: 1), command: command, refused: refused)
    }

    @Test("received commands are counted by kind; refused writes count as refused and as their kind")
    func received() {
        let writes = [Self.write("modeChange"), Self.write("cursorMove"), Self.write("modeChange", refused: true), Self.write(nil, refused: true)]
        #expect(Judge.received(["modeChange": 2, "cursorMove": 1, "refused": 2], writes) == [])
        #expect(Judge.received(["modeChange": 0], writes) == ["the computer received 2 modeChange command(s) during the step, expected 0"])
        #expect(Judge.received(["tap": 1], []) == ["the computer received 0 tap command(s) during the step, expected 1"])
    }

    @Test("pairing: state, attempts left and refusal are each judged")
    func pairing() {
        let seen = PairingObservation(refusal: "org.bluez.Error.NotAuthorized", status: PairingStatus(state: .awaitingCode, attemptsRemaining: 2))
        #expect(Judge.pairing(PairingExpectation(state: .awaitingCode, attemptsRemaining: 2, refused: true), seen) == [])
        #expect(Judge.pairing(PairingExpectation(state: .paired), seen) == ["pairing state awaitingCode, expected paired"])
        #expect(Judge.pairing(PairingExpectation(state: .awaitingCode, attemptsRemaining: 1, refused: false), seen) == [
            "2 attempt(s) left, expected 1",
            "the computer refused the code (org.bluez.Error.NotAuthorized), expected it accepted",
        ])
        // A code's time left: at most what it may have, and present at all.
        var fresh = PairingExpectation(state: .awaitingCode)
        fresh.secondsRemainingAtMost = 58
        let renewed = PairingObservation(refusal: "wrongCode", status: PairingStatus(state: .awaitingCode, attemptsRemaining: 1, secondsRemaining: 60))
        #expect(Judge.pairing(fresh, renewed) == ["60 s remaining, expected at most 58"])
        #expect(Judge.pairing(fresh, seen) == ["no secondsRemaining in the pairing state, expected at most 58 s"])
    }

    @Test("a lockout expected but not seen is inconclusive only once it had surely run out when the code was sent")
    func lockoutRanOut() {
        let locked = PairingExpectation(state: .lockedOut, refused: true)
        let accepted = PairingObservation(refusal: nil, status: PairingStatus(state: .paired, attemptsRemaining: 3))
        let window = LockoutWindow(lockedBy: MonotonicTime(nanoseconds: 10_000_000_000), lockout: .seconds(12))
        let late = MonotonicTime(nanoseconds: 24_000_000_000)
        #expect(Judge.lockoutRanOut(locked, accepted, lockout: window, codeSentAt: late) == "inconclusive: the code was sent "
            + "14.0 s after the phone learned that pairing was locked, and the lockout lasts 12.0 s (run.lockoutSeconds), so it "
            + "had run out: the rig was too slow between the steps to test it. Run the scenario on a less loaded machine, or "
            + "give it a longer run.lockoutSeconds")
        // Exactly at the end counts as run out; a moment before, the computer should still have refused: a failure.
        #expect(Judge.lockoutRanOut(locked, accepted, lockout: window, codeSentAt: MonotonicTime(nanoseconds: 22_000_000_000)) != nil)
        #expect(Judge.lockoutRanOut(locked, accepted, lockout: window, codeSentAt: MonotonicTime(nanoseconds: 21_999_999_999)) == nil)
        // No lockout seen before, the lockout seen, or another state expected: judged as usual.
        #expect(Judge.lockoutRanOut(locked, accepted, lockout: nil, codeSentAt: late) == nil)
        let refused = PairingObservation(refusal: "lockedOut", status: PairingStatus(state: .lockedOut, attemptsRemaining: 0))
        #expect(Judge.lockoutRanOut(locked, refused, lockout: window, codeSentAt: late) == nil)
        #expect(Judge.lockoutRanOut(PairingExpectation(state: .awaitingCode), accepted, lockout: window, codeSentAt: late) == nil)
    }

    @Test("link: a held key fails even without an expectation; outcome, tries, time and serving are judged, scaled")
    func link() {
        let held = LinkObservation(connected: true, attempts: 1, elapsedMs: 900, summary: "", stillHeld: ["BTN_LEFT"])
        #expect(Judge.link(nil, held, scale: 1).first?.contains("still holds BTN_LEFT") == true)
        let seen = LinkObservation(connected: false, attempts: 3, elapsedMs: 1500, summary: "", servingMs: 800)
        #expect(Judge.link(LinkExpectation(outcome: .disconnected, attemptsAtMost: 3, withinMs: 2000, servingWithinMs: 1000), seen, scale: 1) == [])
        #expect(Judge.link(LinkExpectation(outcome: .reconnected, attemptsAtMost: 2, withinMs: 1000), seen, scale: 1) == [
            "the phone shows disconnected, expected connected", "3 tries, expected at most 2",
            "1500.0 ms from the step's start, expected within 1000.0 ms",
        ])
        #expect(Judge.link(LinkExpectation(outcome: .disconnected, withinMs: 1000), seen, scale: 2) == [])
        let refused = LinkObservation(connected: true, attempts: 0, elapsedMs: 0, summary: "", refusal: "the link is up already")
        #expect(Judge.link(nil, refused, scale: 1) == ["the link is up already"])
    }

    @Test("phone state, remembered devices and latency limits")
    func others() {
        #expect(Judge.phone(.idle, .idle) == [])
        #expect(Judge.phone(.idle, .active) == ["the phone is active at the end of the step, expected idle"])
        let devices = DevicesObservation(addresses: ["A", "B"], connected: "B", evicted: "C")
        #expect(Judge.devices(DevicesExpectation(count: 2, evicted: ["C"]), devices) == [])
        #expect(Judge.devices(DevicesExpectation(count: 5, evicted: ["A"]), devices) == [
            "the phone remembers 2 computers, expected 5", "A should have been evicted (evicted: C)",
        ])
        #expect(Judge.limits(LatencyLimits(p95Ms: 50, maxMs: 100), latencies: [10, 20, 30], scale: 1) == [])
        #expect(Judge.limits(LatencyLimits(maxMs: 20), latencies: [10, 30], scale: 1)
            == ["max latency 30.0 ms is over the limit 20.0 ms (20.0 × rig scale 1.0)"])
        #expect(Judge.limits(LatencyLimits(maxMs: 20), latencies: [10, 30], scale: 2) == [])
    }

    @Test("a p95 limit is judged with the percentile the console, results.json and the reports print (HdrHistogram)")
    func limitUsesTheOnePercentile() throws {
        // At a second, HdrHistogram's buckets are about half a millisecond wide, and a percentile below the maximum is
        // its bucket's top: here above the 19th of 20 samples, which nearest rank would give. A limit between the two
        // fails, as the printed p95 says it should.
        let latencies = Array(repeating: 1000.777, count: 19) + [2000]
        let p95 = try #require(LatencyRecorder(latencies).summary.p95)
        #expect(p95 > 1000.777 && p95 < 2000)
        #expect(Judge.limits(LatencyLimits(p95Ms: p95), latencies: latencies, scale: 1) == [])
        let problems = Judge.limits(LatencyLimits(p95Ms: (1000.777 + p95) / 2), latencies: latencies, scale: 1)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("p95 latency \(String(format: "%.1f", p95)) ms is over the limit") == true)
    }
}
