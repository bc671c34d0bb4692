import Foundation
import GestureScript
import Scenario
import Verifier

extension ScenarioDriver {
    /// The phone asks to pair (so the computer shows a code), enters `code`, and reads the pairing state again;
    /// judged by the step's pairing expectation (R4).
    func pair(_ index: Int, code: PairCode) async throws -> StepEvidence {
        try await phone.requestPairing()
        let shown = computer.pairingCode()
        let digits: String
        switch code {
        case .shown: digits = shown ?? "000000"
        case .wrong:
            // The shown code with its last digit changed: wrong, and still 6 digits.
            let base = Array(shown ?? "000000")
            digits = String(base.dropLast()) + String((Int(String(base.last ?? "0"))! + 1) % 10)
        case .digits(let given): digits = given
        }
        let codeSentAt = clock.now()
        let seen = try await phone.enterCode(digits)
        let status = seen.status
        if seen.refusal == nil, status.state == .paired {
            noteAccounting(.paired, at: codeSentAt)
            pairedWith = digits
        }
        let lockedBefore = lockout
        if status.state != .lockedOut {
            lockout = nil
        } else if lockout == nil {
            let seconds = scenario.run.lockoutSeconds ?? RunSettings.defaultLockoutSeconds
            lockout = LockoutWindow(lockedBy: clock.now(), lockout: .seconds(seconds))
        }
        let which = switch code { case .shown: "the shown code"; case .wrong: "a wrong code"; case .digits: "the code" }
        let summary = "entered \(which) \(digits): \(seen.refusal.map { "refused (\($0))" } ?? "accepted"); the computer reports "
            + "\(status.state.rawValue), \(status.attemptsRemaining) attempt(s) left"
            + (status.secondsRemaining.map { ", \($0) s remaining" } ?? "")
        var evidence = StepEvidence(index: index, kind: "pair", notes: [summary])
        guard let expectation = scenario.expectations[index].pairing, options.judged.contains(.pairing) else { return evidence }
        let problems = Judge.pairing(expectation, seen)
        if !problems.isEmpty, let reason = Judge.lockoutRanOut(expectation, seen, lockout: lockedBefore, codeSentAt: codeSentAt) {
            evidence.judged = true
            evidence.inconclusive = true
            evidence.withheld = [reason] + problems
            return evidence
        }
        evidence.add(judged: true, problems: problems)
        return evidence
    }

    /// Seeds the phone's device store with `run.knownDevices` older computers, remembers the one just connected
    /// (evicting the least recently used beyond 5), and checks `expectDevices` (R6).
    func rememberComputer(_ address: String) {
        let now = Date().timeIntervalSince1970
        var store = DeviceStore()
        for index in 0..<scenario.run.knownDevices {
            store.remember(address: String(format: "02:00:00:00:00:%02X", index + 1), name: "known \(index + 1)",
                           at: now - 1000 + Double(index))
        }
        let evicted = store.remember(address: address, name: "RemoteTouch", at: now)
        devices = store
        guard let expectation = scenario.devicesExpectation, options.judged.contains(.devices) else { return }
        let seen = DevicesObservation(addresses: store.devices.map(\.address), connected: address, evicted: evicted?.address)
        let found = Judge.devices(expectation, seen)
        if !found.isEmpty { problems.append("devices (R6): " + found.joined(separator: "; ")) }
    }

    /// The status notifications of each step that names some (R5), and the phone's state at the end of each step
    /// that names one (R11).
    func judgeStatusAndPhone() {
        for position in results.indices {
            let index = results[position].index
            var found: [String] = []
            var judged = false
            if let expectation = scenario.expectations[index].status, options.judged.contains(.status), let window = windows[index] {
                // Until its events were judged: what its commands brought back (a refusal's error status) comes after
                // they were handed to the link, and a command (a key) takes no time of the step's own.
                let received = phone.statuses(from: window.start, to: max(window.end, judgedAt[index] ?? window.end))
                found += Judge.status(expectation, received, scale: options.latencyScale)
                judged = true
            }
            if let wanted = scenario.expectations[index].phone, options.judged.contains(.phone) {
                found += Judge.phone(wanted, activityAtEnd[index])
                judged = true
            }
            results[position].add(judged: judged, problems: found)
        }
    }
}
