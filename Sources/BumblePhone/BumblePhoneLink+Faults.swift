import Foundation
package import GestureScript
package import PhoneLinks
import RigControl
package import ScenarioDriver
import System
package import Verifier

/// The rig's faults and the radio's steps on the Bumble phone: the computer's adapter taken down as for the BlueZ
/// phone (through bluetoothd, which still owns it), the radio's bridges told the same typed commands, and the link's
/// interval moved by the Bumble host's own LE Connection Update.
extension BumblePhoneLink: RigFaults, RadioFaults {
    package func takeDown(_ side: LinkSide, for outage: Duration) async throws -> any LinkOutage {
        guard side == .computer else {
            throw LinkError(.wrongTransport, "a phone-side link drop powers the phone's adapter off in bluetoothd, and the Bumble phone owns its adapter: use a computer-side drop or a radio blackout (the scenario's run.phone can say stack bluez)")
        }
        let from = host.eventCount
        let down = try await BLEPhoneLink.adapterOutage(settings.peripheralAdapter, ofComputer: true, computerSide,
                                                        emulated: settings.emulatedControllers, latencyScale: settings.latencyScale, for: outage)
        try await awaitDown(after: from, within: .seconds(10), what: "the link drop")
        return down
    }

    /// Waits for the phone's host to see the link go down.
    /// - Throws: `LinkError` `.timeout` when it did not within `within`.
    func awaitDown(after from: Int, within: Duration, what: String) async throws {
        guard try await host.awaitEvent("disconnected", after: from, timeout: within * settings.latencyScale) != nil else {
            throw LinkError(.timeout, "the Bumble phone did not see \(what) within \(within * settings.latencyScale); its last lines:\n\(host.lastLines)")
        }
        state.withLock { $0.connected = false }
        radio.linkEnded()
    }

    /// bluetoothd stops and starts again: only the computer's stack restarts (the Bumble phone's host is its own). The
    /// computer must let go of what it holds, register and advertise again; the phone sees its link go and connects
    /// again once the computer advertises.
    package func restartStack(_ computer: any ComputerUnderTest, release: ReleaseCheck) async throws -> LinkObservation {
        let start = ContinuousClock.now
        let heldBefore = computer.heldKeys()
        let from = host.eventCount
        let daemon = try BluetoothDaemon.running()
        try await daemon.restart()
        let stoppedMs = (ContinuousClock.now - start).milliseconds
        let released = await release.afterDrop(heldBefore: heldBefore, downAt: .now())
        let dropped = try await host.awaitEvent("disconnected", after: from, timeout: .seconds(5) * settings.latencyScale) != nil
        if dropped {
            state.withLock { $0.connected = false }
            radio.linkEnded()
        } else {
            try? await disconnect()
        }
        let failure = await connectAgain(timeout: .seconds(15) * settings.latencyScale)
        let elapsedMs = (ContinuousClock.now - start).milliseconds
        let summary = "bluetoothd (pid \(daemon.pid)) stopped and started again in \(Judge.format(stoppedMs)) ms; the Bumble phone "
            + "\(dropped ? "saw its link go" : "still had its link, and let it go") and shows \(failure == nil ? "connected" : "disconnected") after "
            + "\(Judge.format(elapsedMs)) ms\(failure.map { ": \($0)" } ?? "")\n\(released.note)"
        return LinkObservation(connected: failure == nil, attempts: 1, elapsedMs: elapsedMs, summary: summary, stillHeld: released.stillHeld)
    }

    package func setRadio(_ conditions: RadioConditions?) async throws -> RadioSetting {
        try await radio.set(conditions) { [self] ms in
            let timeout = settings.supervisionTimeoutMs
            let moved = try await host.ok("update", [NumberText.plain(ms), NumberText.plain(ms), "0", "\(timeout)"], timeout: .seconds(30))
            let handle = state.withLock { $0.handle } ?? -1
            return (handle, "the Bumble phone moved its link (handle \(handle)) to a \(NumberText.plain(moved.number("intervalMs") ?? ms)) ms interval: LE Connection Update from its host, Complete received")
        }
    }

    package func blackout(for length: Duration) async throws -> (any LinkOutage)? {
        let ms = length.milliseconds
        let from = host.eventCount
        try await radio.blackout(milliseconds: ms)
        let outage = RestoringOutage(
            description: "a radio blackout of \(NumberText.plain(ms)) ms (every transmission lost; the links' supervision timeout \(settings.supervisionTimeoutMs) ms)",
            after: length) {}
        let margin = Duration.milliseconds(Int64(300 * settings.latencyScale))
        guard try await host.awaitEvent("disconnected", after: from, timeout: length + margin) != nil else {
            _ = await outage.restored()
            return nil
        }
        state.withLock { $0.connected = false }
        radio.linkEnded()
        return outage
    }

    /// The scenario's end: the computer's adapter off (the link drops at once, as for the BlueZ phone), the computer
    /// stopped, the radio's rate back, the computer's adapter on again. The Bumble phone keeps its adapter for the
    /// next scenario; after an error it is told to disconnect, whatever it holds.
    package func tearDown(erred: Bool, phase: (String) -> Void, stopComputer: @escaping @Sendable () async -> Void) async
        -> LinkTeardown
    {
        var teardown = LinkTeardown()
        let from = host.eventCount
        var adapterOff = true
        do {
            try await computerSide.setPowered(settings.peripheralAdapter, false)
        } catch {
            adapterOff = false
            teardown.problems.append("tearing the link down failed: \(error)")
        }
        async let computerStopped: Void = stopComputer()
        if state.withLock({ $0.connected }), adapterOff {
            do { try await awaitDown(after: from, within: .seconds(30), what: "the end of the scenario") } catch {
                teardown.problems.append("tearing the link down failed: \(error)")
            }
            phase("link down")
        }
        await computerStopped
        await radio.restore(&teardown)
        do {
            let note = try await BLEPhoneLink.powerOnSettled(settings.peripheralAdapter, computerSide).note
            if !note.isEmpty { teardown.notes.append(String(note.dropFirst("; ".count))) }
        } catch {
            teardown.rigBroken = "the computer's adapter \(settings.peripheralAdapter) did not power on again: \(error)"
        }
        phase("computer's adapter on")
        if host.hasEnded {
            teardown.notes.append("rig: the Bumble phone had exited; the next scenario starts another")
        } else if erred || !teardown.problems.isEmpty {
            _ = try? await host.request("disconnect", timeout: .seconds(10))
        }
        return teardown
    }
}
