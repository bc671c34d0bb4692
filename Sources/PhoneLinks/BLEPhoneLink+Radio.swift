import Foundation
package import GestureScript
import Rig
import ScenarioDriver

/// A scenario's `radio` steps on the vm rig's emulated radio: the bridges' packet error rate through their control
/// FIFOs, and back to the rig's own when the scenario ends (the bridges outlive it, the next scenario must not inherit
/// its air).
extension BLEPhoneLink: RadioFaults {
    package func setRadio(_ conditions: RadioConditions?) async throws -> String {
        let environment = try? RigEnvironment.current()
        let control = try RadioControl.find(
            in: environment?.radioControl,
            remedy: "radio steps run in the vm rig, whose radio model (Rigs/vm.json's \"radio\": connection events) has bridges to tell")
        let own = environment?.radio?.packetErrorRate ?? 0
        let rate = conditions.map { $0.packetErrorPercent / 100 } ?? own
        try control.send("error-rate \(rate)")
        radioChanged.withLock { $0 = conditions != nil }
        return conditions.map { "radio: \($0) on every bridge" } ?? "radio: back to the rig's packet error rate \(own)"
    }

    /// After a scenario that changed the radio: the rig's own packet error rate again. Errors go to the teardown.
    func restoreRadio(_ teardown: inout LinkTeardown) async {
        guard radioChanged.withLock({ $0 }) else { return }
        do {
            _ = try await setRadio(nil)
        } catch {
            teardown.problems.append("putting the radio's packet error rate back failed: \(error)")
        }
    }
}
