import Foundation
package import GestureScript
import Rig
package import ScenarioDriver

/// A scenario's `radio` steps on the vm rig's emulated radio: the bridges' packet error rate and blackouts through
/// their control FIFOs; the link's interval through the phone's own host (`ConnectionUpdate`). The error rate goes back
/// to the rig's own when the scenario ends (the bridges outlive it, the next scenario must not inherit its air); the
/// interval goes with the link.
extension BLEPhoneLink: RadioFaults {
    package func setRadio(_ conditions: RadioConditions?) async throws -> String {
        let environment = try? RigEnvironment.current()
        var done: [String] = []
        if let percent = conditions?.packetErrorPercent {
            try radioControl(environment).send("error-rate \(percent / 100)")
            radioChanged.withLock { $0 = true }
            done.append("packet error rate \(percent) % on every bridge")
        } else if conditions == nil {
            done.append("back to the rig's packet error rate \(try rigErrorRateAgain(environment))")
        }
        if let ms = conditions?.intervalMs {
            done.append(try await moveLink(to: ms, environment))
            intervalChanged.withLock { $0 = true }
        } else if conditions == nil, intervalChanged.withLock({ $0 }), let own = environment?.radio?.intervalMs, own > 0 {
            done.append(try await moveLink(to: own, environment) + " (the rig's)")
            intervalChanged.withLock { $0 = false }
        }
        return done.joined(separator: "; ")
    }

    /// The phone's host asks its controller for LE Connection Update to `ms`, keeping the rig's supervision timeout.
    private func moveLink(to ms: Double, _ environment: RigEnvironment?) async throws -> String {
        let remote = try connected()
        let timeout = environment?.supervisionTimeoutMs ?? ConnectionUpdate.defaultSupervisionTimeoutMs
        do {
            return try ConnectionUpdate.request(intervalMs: ms, supervisionTimeoutMs: timeout, to: remote.address, on: central.adapter)
        } catch let error as RigError {
            guard let problem = computerMaximumProblem.withLock({ $0 }) else { throw error }
            throw RigError(error.code, error.what, hint: "the computer's adapter kept its [LE] maximum: \(problem)", cause: error)
        }
    }

    /// Every bridge fails every transmission for `length`; past the supervision timeout the bridges end the link with
    /// reason 0x08 and the phone sees it go down. Waits for that up to the blackout's end (and a margin for the
    /// news to reach the phone over D-Bus).
    package func blackout(for length: Duration) async throws -> (any LinkOutage)? {
        let environment = try? RigEnvironment.current()
        let remote = try connected()
        let ms = length.milliseconds
        try radioControl(environment).send("blackout \(ms)")
        let timeout = environment?.supervisionTimeoutMs.map { "the links' supervision timeout \($0) ms" } ?? "the links' supervision timeout"
        let outage = RestoringOutage(description: "a radio blackout of \(Self.format(ms)) ms (every transmission lost; \(timeout))", after: length) {}
        let margin = Duration.milliseconds(Int64(300 * settings.latencyScale))
        guard try await central.waitUntilDisconnected(remote, timeout: length + margin) else {
            _ = await outage.restored()
            return nil
        }
        return outage
    }

    private func radioControl(_ environment: RigEnvironment?) throws -> RadioControl {
        try RadioControl.find(
            in: environment?.radioControl,
            remedy: "radio steps run in the vm rig, whose radio model (Rigs/vm.json's \"radio\": connection events) has bridges to tell")
    }

    /// Every bridge back at the rig's own packet error rate (its file's, or `--radio-error-rate`'s); returns it.
    private func rigErrorRateAgain(_ environment: RigEnvironment?) throws -> Double {
        let own = environment?.radio?.packetErrorRate ?? 0
        try radioControl(environment).send("error-rate \(own)")
        radioChanged.withLock { $0 = false }
        return own
    }

    /// After a scenario that changed the radio: the rig's own packet error rate again. Errors go to the teardown.
    func restoreRadio(_ teardown: inout LinkTeardown) async {
        guard radioChanged.withLock({ $0 }) else { return }
        do {
            _ = try rigErrorRateAgain(try? RigEnvironment.current())
        } catch {
            teardown.problems.append("putting the radio's packet error rate back failed: \(error)")
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
