import Foundation
import Waiting

/// Waits until the kernel has finished with an adapter it just powered on: bluetoothd answers `Powered = true`
/// before the kernel's own follow-up (advertising enabled again for the registered advertisements) has run, and
/// an adapter powered off while that is still waiting for the controller makes bluetoothd 5.66 crash (seen in the
/// vm rig: "Opcode 0x2006 failed: -112", then bluetoothd's segfault, in 3 of 3 suite runs where the teardown came
/// that soon after a link drop's end). Open it before powering on; it sees every command from then on.
package final class AdapterSettleWatch {
    let channel: HCIMonitorChannel
    private var ledger: HCICommandLedger

    package init(adapter: String) throws(RigError) {
        channel = try HCIMonitorChannel(adapter: adapter)
        ledger = HCICommandLedger(index: channel.index)
    }

    /// What the wait found.
    package struct Outcome: Sendable {
        /// Every command answered (or given up by the kernel) and the adapter quiet.
        package var settled: Bool
        package var waited: Duration
        /// Commands the controller never answered, which the kernel gave up after its timeout.
        package var timedOut: [UInt16]
        /// Whether the controller advertises as the answered advertising enables say; nil when none was answered.
        package var advertising: Bool? = nil

        /// The rig's note for the step ("" when there is nothing to say).
        package func note(_ adapter: String) -> String {
            var notes: [String] = []
            if !timedOut.isEmpty {
                let opcodes = timedOut.map { String(format: "0x%04x", $0) }
                notes.append("\(adapter)'s emulated controller never answered \(opcodes.joined(separator: ", ")) after power-on (the kernel timed it out; dmesg has it)")
            }
            if !settled { notes.append("\(adapter) was still busy \(waited) after power-on") }
            return notes.map { "; rig: \($0)" }.joined()
        }
    }

    /// Waits until nothing sent to the adapter is unanswered and it has been quiet for `quiet`, at most `within`:
    /// the monitor channel is read every 5 ms (the kernel queues its frames; nothing announces the last one).
    /// - Throws: `CancellationError` when the task is cancelled.
    package func settle(quiet: Duration = .milliseconds(100), within: Duration = .seconds(3)) async throws -> Outcome {
        let start = ContinuousClock.now
        let settled = try await Poll.upTo(within, every: .milliseconds(5)) { () -> Outcome? in
            let now = read()
            guard ledger.isSettled(at: now, quiet: quiet) else { return nil }
            return Outcome(settled: true, waited: now - start, timedOut: ledger.timedOut, advertising: ledger.advertising)
        }
        if let settled { return settled }
        return Outcome(settled: false, waited: ContinuousClock.now - start, timedOut: ledger.timedOut, advertising: ledger.advertising)
    }

    /// Waits up to `within` for the controller to advertise (an accepted advertising enable), reading on from where
    /// `settle` stopped: after a power-on the kernel turns a registered advertisement's advertising on again.
    /// - Returns: whether it did. - Throws: `CancellationError` when the task is cancelled.
    package func advertises(within: Duration) async throws -> Bool {
        if ledger.advertising == true { return true }
        return try await Poll.upTo(within, every: .milliseconds(5)) { () -> Void? in
            _ = read()
            return ledger.advertising == true ? () : nil
        } != nil
    }

    /// Takes the frames queued since the last read into the ledger; returns when.
    private func read() -> ContinuousClock.Instant {
        let now = ContinuousClock.now
        for frame in channel.readAvailable() { ledger.add(frame, at: now) }
        ledger.expire(at: now)
        return now
    }
}
