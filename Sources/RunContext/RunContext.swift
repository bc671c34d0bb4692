import Foundation
package import Evidence
package import ScenarioDriver
package import RigControl
package import GestureScript

/// What every scenario, bench and soak of a run shares: the running rig (`RunningRig`, which `hil` builds once), the
/// lane's adapters and uinput name, the run's options (write path, jitter, fail-fast, captures), where results go, and
/// the run's stop. Made once by `hil run`, `hil bench`, `hil calibrate` and `hil soak`; `lane(_:)` gives each lane its own.
package struct RunContext: Sendable {
    /// The rig the run is on: its lanes, radio bridges, hosts, latency scale.
    package var rig: RunningRig
    /// The `hil` executable (for the peripheral).
    package var hil: String
    /// This lane's adapters (the rig's first lane unless `lane(_:)` chose another).
    package var peripheralAdapter: String
    package var centralAdapter: String
    /// The uinput device name this lane's verifier looks for.
    package var uinputName: String
    /// Multiplies every deadline and latency limit (the rig's `latencyScale`).
    package var latencyScale: Double { rig.latencyScale }
    /// The time rules' limits for this build and the rig's radio (`StageRule`); nil: the stages are not judged.
    package var timing: ScenarioDriver.Timing?
    /// Overrides each scenario's write path when set.
    package var writePath: WritePath?
    /// Overrides each scenario's `run.sendJitterMs` when set (`hil run --send-jitter`).
    package var sendJitterMs: Double?
    /// Where each scenario's peripheral log goes (a folder per scenario).
    package var workDirectory: String
    /// A local folder each scenario runs in before its folder is moved to `workDirectory` (`ScratchFolder`).
    package var scratch: ScratchFolder?
    /// End a scenario at its first failed step (the rest are reported as not run): `hil run --fail-fast`.
    package var failFast = false
    /// The rig's controllers are btvirt's emulated ones (see `EmulatedRadio`).
    package var emulatedControllers: Bool { rig.emulatedControllers }
    /// Other lanes' computers advertise too: the phone connects to this lane's computer's address only.
    package var onlyThisComputer = false
    /// The rig's two hosts for the network transports; nil when it has none (tcp scenarios are then an error).
    package var network: NetworkHosts? { rig.network }
    /// Which scenarios keep their captures (`hil run --capture`).
    package var capture: CaptureMode = .failed
    /// The run's capture tools, which each scenario cuts its window from (`RunSession` starts them).
    package var runCapture: RunCapture?
    /// The run's stop: once it was interrupted, no computer starts, and a scenario still under way (not kept) makes
    /// no timeline (tshark's start alone took 7-11 s in the TCG guest, and the vm rig gives an interrupted job 30 s).
    package var stop: RunStop?

    /// The rig's two hosts, or the error that `what` needs them and this rig has none.
    package func networkHosts(for what: String) throws -> NetworkHosts {
        guard let network else {
            throw RunContextError(.hosts, "\(what) needs the rig's two hosts (network namespaces with avahi-daemon), and rig \(rig.name) has none: run in the vm rig, or see `hil doctor`")
        }
        return network
    }

    /// The context of a run on `rig`'s first lane.
    package init(rig: RunningRig, hil: String, writePath: WritePath?, workDirectory: String) {
        self.rig = rig
        self.hil = hil
        peripheralAdapter = rig.lanes[0].peripheral
        centralAdapter = rig.lanes[0].central
        uinputName = rig.uinputName
        self.writePath = writePath
        self.workDirectory = workDirectory
    }

    /// This context on lane `index` (from 0) of the first `count` of the rig's lanes: its adapters, and from the second
    /// lane on, a uinput device name of its own ("… (lane 2)"), so each lane's verifier reads its own computer's device.
    package func lane(_ index: Int, of count: Int) -> RunContext {
        var context = self
        context.peripheralAdapter = rig.lanes[index].peripheral
        context.centralAdapter = rig.lanes[index].central
        context.onlyThisComputer = count > 1
        if index > 0 {
            let suffix = " (lane \(index + 1))"
            context.uinputName = String(decoding: uinputName.utf8.prefix(79 - suffix.utf8.count), as: UTF8.self) + suffix
        }
        return context
    }
}
