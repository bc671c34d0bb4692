import GestureModel
import GestureScript
package import InputCodes
import Verifier
import Waiting

/// Checks what the computer still holds once the link is down: it must let go of everything as it notices the
/// drop (R12). Waits for up to 2 s (times the latency scale).
package struct ReleaseCheck: Sendable {
    let computer: any ComputerUnderTest
    let clock: any DriverClock
    let latencyScale: Double

    package init(computer: any ComputerUnderTest, clock: any DriverClock, latencyScale: Double) {
        self.computer = computer
        self.clock = clock
        self.latencyScale = latencyScale
    }

    /// Waits until nothing is held, or 2 s × the latency scale after `downAt`; a line for the step's message
    /// and what was still held then.
    package func afterDrop(heldBefore: [String], downAt: MonotonicTime) async -> (note: String, stillHeld: [String]) {
        let giveUp = downAt + .milliseconds(Int(2000 * latencyScale))
        var held = computer.heldKeys()
        do {
            // A release is a frame: the kernel's state is asked again at each one.
            _ = try await computer.upTo(giveUp, on: clock) { () -> Void? in
                held = computer.heldKeys()
                return held.isEmpty ? () : nil
            }
        } catch {
            // Cancelled (an interrupted run): the scenario ends now, and what is held is the teardown's to see.
        }
        let after = Judge.format((clock.now() - downAt).milliseconds)
        if !held.isEmpty {
            return ("still held \(after) ms after the phone saw the link go down: \(held.joined(separator: ", "))", held)
        }
        if heldBefore.isEmpty { return ("nothing was held when the link went down", []) }
        return ("\(heldBefore.joined(separator: ", ")) held when the link went down, released within \(after) ms of the phone seeing it", [])
    }
}

extension ScenarioDriver {
    /// The network faults a step asks for, by the step.
    enum NetworkFault {
        case network, partition, forge, otherPhone
    }

    /// The link's rig faults, or why a `step` cannot run on this transport.
    func rigFaults(_ step: String) throws -> any RigFaults {
        guard let faults = phone as? any RigFaults else {
            throw DriverError(.wrongTransport, "a \(step) step is a fault the rig injects into the link, and this transport's link takes none")
        }
        return faults
    }

    /// The link's radio, or why a radio step cannot run on this transport.
    func radioFaults() throws -> any RadioFaults {
        guard let faults = phone as? any RadioFaults else {
            throw DriverError(.wrongTransport, "a radio step changes the rig's emulated radio under ble and hid: it does not apply to this transport (mark the scenario \"transports\": [\"ble\", \"hid\"])")
        }
        return faults
    }

    /// The link's network faults, or why the step cannot run on this transport.
    func networkFaults(_ fault: NetworkFault) throws -> any NetworkFaults {
        if let faults = phone as? any NetworkFaults { return faults }
        switch fault {
        case .network:
            throw DriverError(.wrongTransport, "a network step sets delay and loss on the network between the phone and computer hosts: it does not apply to this transport (mark the scenario \"transports\": [\"tcp\", \"udp\"])")
        case .partition:
            throw DriverError(.wrongTransport, "a partition step cuts the network between the phone and computer hosts: it does not apply to this transport (mark the scenario \"transports\": [\"tcp\", \"udp\"])")
        case .forge:
            throw DriverError(.wrongTransport, "forgedPackets sends UDP movement packets: it applies to the udp transport only (mark the scenario \"transports\": [\"udp\"])")
        case .otherPhone:
            throw DriverError(.wrongTransport, "otherPhone opens a session on a network transport's control port: it applies to tcp and udp (mark the scenario \"transports\": [\"tcp\", \"udp\"])")
        }
    }

    var release: ReleaseCheck { ReleaseCheck(computer: computer, clock: clock, latencyScale: options.latencyScale) }

    /// Acts on the link, then (when it is back) re-sends the phone's mode and takes the fast path again, and
    /// judges the step's link expectation.
    func linkStep(_ index: Int, _ step: ScriptStep) async throws -> StepEvidence {
        let seen: LinkObservation
        switch step {
        case .linkDrop(let outage, let side) where linkUp:
            seen = try await dropLink(for: outage) { try await rigFaults(step.name).takeDown(side, for: outage) }
        case .partition(let outage) where linkUp:
            seen = try await dropLink(for: outage) { try await networkFaults(.partition).partition(for: outage) }
        case .radioBlackout(let outage) where linkUp:
            seen = try await dropLink(for: outage) { try await radioFaults().blackout(for: outage) }
        case .disconnect where linkUp: seen = try await disconnect()
        case .reconnect(let timeout) where !linkUp: seen = await reconnect(timeout: timeout)
        case .restartBluetoothd where linkUp:
            noteAccounting(.linkDown)
            seen = try await rigFaults(step.name).restartStack(computer, release: release)
        case .restartPeripheral where linkUp: seen = try await restartComputer()
        default:
            seen = LinkObservation(connected: linkUp, attempts: 0, elapsedMs: 0, summary: "",
                                   refusal: "the link is \(linkUp ? "up" : "down") already: nothing to \(step.name)")
        }
        if seen.refusal == nil, seen.wentDown {
            // The link went down (and maybe came back): the fast path is gone with it. A link that lived through a
            // blackout keeps both, and the phone has nothing to tell the computer again.
            phone.closeFastPath()
            if seen.connected { try await resyncAfterReconnect() }
        }
        linkUp = seen.connected
        return judgedLink(index, step, seen)
    }

    /// As the phone does after reconnecting: tell the computer its mode again (confirmed; while idle the phone
    /// may hold it back, R11.2, and its timers send it later), take the fast path again, listen to status again.
    private func resyncAfterReconnect() async throws {
        for output in processor.resync(at: max(time, elapsed)) {
            guard let command = output.command else { continue }
            let at = clock.now()
            let wire = try await phone.sendStamped(command, confirmed: true)
            commandLog.append("\(at) \(String(decoding: command.encoded(), as: UTF8.self))\n")
            sends += wire.map { .init(at: ($0.leftHost ?? at).nanoseconds, payload: $0.payload) }
        }
        try await phone.openFastPath()
        await phone.watchStatus()
    }

    private func judgedLink(_ index: Int, _ step: ScriptStep, _ seen: LinkObservation) -> StepEvidence {
        let expectation = options.judged.contains(.link) ? scenario.expectations[index].link : nil
        var evidence = StepEvidence(index: index, kind: step.name, notes: seen.refusal != nil ? [] : [seen.summary])
        evidence.problems = Judge.link(expectation, seen, scale: options.latencyScale)
        evidence.judged = expectation != nil
        return evidence
    }

    /// The link drops without the user asking (R12): the phone notices, and its reconnect policy runs in time.
    /// `takeDown` returns nil when the link lived through the fault (a radio blackout shorter than the supervision
    /// timeout), once the fault is over.
    private func dropLink(for outage: Duration, _ takeDown: () async throws -> (any LinkOutage)?) async throws -> LinkObservation {
        let start = clock.now()
        let heldBefore = computer.heldKeys()
        guard let down = try await takeDown() else {
            let elapsedMs = (clock.now() - start).milliseconds
            var seen = LinkObservation(
                connected: true, attempts: 0, elapsedMs: elapsedMs,
                summary: "the link lived through \(Judge.format(outage.milliseconds)) ms of radio blackout (shorter than its supervision timeout): it never went down; held then: \(heldBefore.isEmpty ? "nothing" : heldBefore.joined(separator: ", "))")
            seen.wentDown = false
            return seen
        }
        noteAccounting(.linkDown)
        let released = await release.afterDrop(heldBefore: heldBefore, downAt: clock.now())
        var policy = ReconnectPolicy(phone.reconnectRule, scenario.run)
        let interval = policy.interval
        policy.linkLost(at: clock.now() - start)
        var attempts = 0
        var tries: [String] = []
        var lastFailure: String?
        while let next = policy.nextAttemptAt {
            let wait = policy.currentWait
            try await clock.sleep(until: start + next)
            attempts += 1
            tries.append(Judge.format((clock.now() - start).milliseconds))
            lastFailure = await phone.reconnect(timeout: min(wait, .seconds(10)))
            if lastFailure == nil {
                policy.connected()
            } else {
                policy.attemptFailed(at: clock.now() - start)
            }
        }
        // When the phone reached its verdict (connected, or gave up), not when the radio or network came back.
        let ended = clock.now()
        let elapsedMs = (ended - start).milliseconds
        let (radioBack, note) = await down.restored()
        let back = policy.state == .connected ? ", \(Judge.format((ended - radioBack).milliseconds)) ms after the link came back"
            : lastFailure.map { "; the last try failed: \($0)" } ?? ""
        let every = policy.doubling
            ? "backing off from \(Judge.format(interval.milliseconds)) ms (tries at \(tries.joined(separator: ", ")) ms)"
            : "every \(Judge.format(interval.milliseconds)) ms"
        let summary = "link dropped (\(down.description)) for \(Judge.format(outage.milliseconds)) ms: \(attempts) tries \(every), "
            + "phone shows \(policy.label) after \(Judge.format(elapsedMs)) ms\(back)\(note)"
            + "\n\(released.note)"
        return LinkObservation(connected: policy.state == .connected, attempts: attempts, elapsedMs: elapsedMs,
                               summary: summary, stillHeld: released.stillHeld)
    }

    /// The user disconnects on the phone: the link closes and the phone does not try again.
    private func disconnect() async throws -> LinkObservation {
        let start = clock.now()
        let heldBefore = computer.heldKeys()
        try await phone.disconnect()
        noteAccounting(.linkDown)
        let elapsedMs = (clock.now() - start).milliseconds
        let released = await release.afterDrop(heldBefore: heldBefore, downAt: clock.now())
        return LinkObservation(
            connected: false, attempts: 0, elapsedMs: elapsedMs,
            summary: "the user disconnected: link down after \(Judge.format(elapsedMs)) ms, phone shows disconnected\n\(released.note)",
            stillHeld: released.stillHeld)
    }

    /// The user asks to connect again (R12.4): one try within `timeout`.
    private func reconnect(timeout: Duration) async -> LinkObservation {
        let start = clock.now()
        let failure = await phone.reconnect(timeout: timeout)
        let elapsedMs = (clock.now() - start).milliseconds
        let shown = failure == nil ? "connected" : "disconnected"
        return LinkObservation(
            connected: failure == nil, attempts: 1, elapsedMs: elapsedMs,
            summary: "the user reconnected: phone shows \(shown) after \(Judge.format(elapsedMs)) ms\(failure.map { ": \($0)" } ?? "")")
    }

    /// The computer's app stops and starts again on the same state. While it is down the phone, its service
    /// gone, lets go of it and looks for it; then it connects (one try).
    private func restartComputer() async throws -> LinkObservation {
        let start = clock.now()
        let heldBefore = computer.heldKeys()
        noteAccounting(.computerRestarted)
        var phoneMs = 0.0
        let notes = try await computer.restart {
            let phoneStart = clock.now()
            try await phone.forgetComputer()
            phoneMs = (clock.now() - phoneStart).milliseconds
        }
        if !notes.isEmpty { self.notes.append(notes) }
        let registeredMs = (clock.now() - start).milliseconds - phoneMs
        let held = heldBefore.isEmpty ? "" : "\n\(heldBefore.joined(separator: ", ")) held when it stopped, gone with its uinput device"
        let failure = await phone.connectAgain(timeout: .seconds(Int64(10 * options.latencyScale)))
        let elapsedMs = (clock.now() - start).milliseconds
        let shown = failure == nil ? "connected" : "disconnected"
        let summary = "the computer stopped and registered again in \(Judge.format(registeredMs)) ms (the same state folder; the "
            + "phone disconnected and forgot it meanwhile, \(Judge.format(phoneMs)) ms); the phone shows \(shown) after "
            + "\(Judge.format(elapsedMs)) ms\(failure.map { ": \($0)" } ?? "")\(held)"
        return LinkObservation(connected: failure == nil, attempts: 1, elapsedMs: elapsedMs, summary: summary)
    }
}
