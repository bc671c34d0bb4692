package import GestureScript
package import RigControl
package import ScenarioDriver
import Synchronization
import System

/// A BLE phone's side of a scenario's `radio` steps on the vm rig's emulated radio, for every phone stack: the bridges'
/// packet error rate and blackouts told to the rig's bridges (`RunningRig.Radio`, typed commands each bridge answers),
/// the link's interval moved by the phone's own host (`moveLink`, the stack's LE Connection Update), and what a step
/// records: what the bridges answered they hold once it is done. The error rate goes back to the rig's own when the
/// scenario ends (the bridges outlive it, the next scenario must not inherit its air); the interval goes with the link.
package final class LinkRadio: Sendable {
    /// The link's interval moved by the phone's host: the link's handle on the phone's adapter, and what was done.
    package typealias Move = @Sendable (Double) async throws -> (handle: Int, done: String)

    private let radio: RunningRig.Radio?
    /// A `radio` step changed the rig's packet error rate: the teardown puts the rig's own back.
    private let rateChanged = Mutex(false)
    /// The link a `radio` step moved to another interval (its handle): a `"reset"` moves it back to the rig's.
    private let movedLink = Mutex<Int?>(nil)

    package init(_ radio: RunningRig.Radio?) {
        self.radio = radio
    }

    /// Sets what `conditions` names (nil: the rig's own again) and returns what the bridges then hold.
    package func set(_ conditions: RadioConditions?, moveLink: Move) async throws -> RadioSetting {
        let radio = try rigRadio()
        var done: [String] = []
        // A reset gives the rig's own rate back; a step that names no rate leaves the rate as it is.
        let rate: Double? = if let conditions { conditions.packetErrorPercent.map { $0 / 100 } } else { radio.packetErrorRate }
        if let rate {
            if let refusal = try await radio.setErrorRate(rate).refusal { return RadioSetting(done: "", holds: nil, refusal: refusal) }
            rateChanged.withLock { $0 = conditions != nil }
            done.append(conditions == nil ? "back to the rig's packet error rate \(NumberText.plain(rate))"
                                          : "packet error rate \(NumberText.plain(rate * 100)) % on every bridge")
        }
        var asked: Double?
        if let ms = conditions?.intervalMs {
            let moved = try await moveLink(ms)
            movedLink.withLock { $0 = moved.handle }
            done.append(moved.done)
            asked = ms
        } else if conditions == nil, movedLink.withLock({ $0 }) != nil, radio.intervalMs > 0 {
            let moved = try await moveLink(radio.intervalMs)
            done.append(moved.done + " (the rig's)")
            movedLink.withLock { $0 = nil }
            asked = radio.intervalMs
        }
        var setting = confirmed(try await radio.holding(), radio, rate: rate, interval: asked)
        setting.done = done.joined(separator: "; ")
        return setting
    }

    /// What the bridges answered they hold, against what the step asked: a rate every bridge holds, and a link the
    /// phone moved at the interval it asked for.
    private func confirmed(_ answers: RadioHolding, _ radio: RunningRig.Radio, rate: Double?, interval: Double?) -> RadioSetting {
        let held = Set(answers.errorRates)
        guard held.count == 1, let holds = held.first else {
            return RadioSetting(done: "", holds: nil, refusal: "the radio bridges hold different packet error rates: \(held.sorted().map(NumberText.plain).joined(separator: ", "))")
        }
        if let rate, abs(holds - rate) > 1e-12 {
            return RadioSetting(done: "", holds: nil, refusal: "the radio bridges hold a packet error rate of \(NumberText.plain(holds)), not the \(NumberText.plain(rate)) asked")
        }
        var conditions = RadioConditions()
        if abs(holds - radio.packetErrorRate) > 1e-12 { conditions.packetErrorPercent = (holds * 100 * 1e9).rounded() / 1e9 }
        if let handle = movedLink.withLock({ $0 }) {
            let links = answers.links.filter { $0.handle == handle }
            if let interval {
                // This step moved the link: a bridge must time it at the interval asked.
                guard let link = links.first(where: { abs($0.intervalMs - interval) < 0.01 }) else {
                    let seen = links.map { NumberText.plain($0.intervalMs) + " ms" }
                    return RadioSetting(done: "", holds: nil, refusal: "no radio bridge times the phone's link (handle \(handle)) at \(NumberText.plain(interval)) ms after the update: "
                        + (seen.isEmpty ? "none holds that link" : "they hold it at \(seen.joined(separator: ", "))"))
                }
                if abs(link.intervalMs - radio.intervalMs) > 0.01 { conditions.intervalMs = link.intervalMs }
            } else if let link = links.first {
                // An earlier step moved it: the interval the bridges time it at now.
                if abs(link.intervalMs - radio.intervalMs) > 0.01 { conditions.intervalMs = link.intervalMs }
            } else {
                // The moved link is gone (dropped since): a new link has the rig's interval.
                movedLink.withLock { $0 = nil }
            }
        }
        return RadioSetting(done: "", holds: conditions == RadioConditions() ? nil : conditions)
    }

    /// Every bridge fails every transmission for `milliseconds` from now.
    /// - Throws: `LinkError` `.commandFailed` with a bridge's refusal.
    package func blackout(milliseconds: Double) async throws {
        if let refusal = try await rigRadio().blackout(milliseconds: milliseconds).refusal {
            throw LinkError(.commandFailed, "a radio blackout of \(NumberText.plain(milliseconds)) ms: \(refusal)")
        }
    }

    /// After a scenario that changed the radio: the rig's own packet error rate again. Errors go to the teardown.
    package func restore(_ teardown: inout LinkTeardown) async {
        guard rateChanged.withLock({ $0 }), let radio else { return }
        do {
            if let refusal = try await radio.setErrorRate(radio.packetErrorRate).refusal {
                teardown.problems.append("putting the radio's packet error rate back failed: \(refusal)")
                return
            }
            rateChanged.withLock { $0 = false }
        } catch {
            teardown.problems.append("putting the radio's packet error rate back failed: \(error)")
        }
    }

    /// The link went down: an interval a step moved it to went with it.
    package func linkEnded() {
        movedLink.withLock { $0 = nil }
    }

    /// The rig's radio bridges, or why a radio step cannot run on this rig.
    private func rigRadio() throws(RigError) -> RunningRig.Radio {
        guard let radio else {
            throw RigError(.fault, "this rig started no radio bridges",
                           hint: "radio steps run in the vm rig, whose radio model (Rigs/vm.json's \"radio\": connection events) has bridges to tell")
        }
        return radio
    }
}
