import Foundation
package import GestureScript
import RigControl
package import ScenarioDriver
import System

/// A scenario's `radio` steps for the BlueZ phone (`LinkRadio`): the interval moves through the phone's own host with
/// hcitool's LE Connection Update (`ConnectionUpdate`).
extension BLEPhoneLink: RadioFaults {
    package func setRadio(_ conditions: RadioConditions?) async throws -> RadioSetting {
        try await radio.set(conditions) { [self] ms in try await moveLink(to: ms) }
    }

    /// The phone's host asks its controller for LE Connection Update to `ms`, keeping the rig's supervision timeout.
    private func moveLink(to ms: Double) async throws -> (handle: Int, done: String) {
        let remote = try connected()
        do {
            return try ConnectionUpdate.request(intervalMs: ms, supervisionTimeoutMs: settings.supervisionTimeoutMs,
                                                to: remote.address, on: central.adapter)
        } catch let error as RigError {
            guard let problem = computerMaximumProblem.withLock({ $0 }) else { throw error }
            throw RigError(error.code, error.what, hint: "the computer's adapter kept its [LE] maximum: \(problem)", cause: error)
        }
    }

    /// Every bridge fails every transmission for `length`; past the supervision timeout the bridges end the link with
    /// reason 0x08 and the phone sees it go down. Waits for that up to the blackout's end (and a margin for the
    /// news to reach the phone over D-Bus).
    package func blackout(for length: Duration) async throws -> (any LinkOutage)? {
        let remote = try connected()
        let ms = length.milliseconds
        try await radio.blackout(milliseconds: ms)
        let outage = RestoringOutage(
            description: "a radio blackout of \(NumberText.plain(ms)) ms (every transmission lost; the links' supervision timeout \(settings.supervisionTimeoutMs) ms)",
            after: length) {}
        let margin = Duration.milliseconds(Int64(300 * settings.latencyScale))
        guard try await central.waitUntilDisconnected(remote, timeout: length + margin) else {
            _ = await outage.restored()
            return nil
        }
        radio.linkEnded()
        return outage
    }
}
