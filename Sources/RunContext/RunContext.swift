import Foundation
package import Evidence
package import ScenarioDriver
package import Rig
package import GestureScript
package import Scenario

/// What every scenario, bench and soak of a run shares: the rig's adapters and uinput name, its latency scale and
/// hosts, the run's options (write path, jitter, fail-fast, captures), where results go, and the run's stop. Made once
/// by `hil run`, `hil bench`, `hil calibrate` and `hil soak`; `lane(_:of:)` gives each lane its own.
package struct RunContext: Sendable {
    /// The `hil` executable (for the peripheral).
    package var hil: String
    package var peripheralAdapter: String
    package var centralAdapter: String
    package var uinputName: String
    /// Multiplies every deadline and latency limit (the rig's `latencyScale`).
    package var latencyScale: Double
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
    package var emulatedControllers = false
    /// Other lanes' computers advertise too: the phone connects to this lane's computer's address only.
    package var onlyThisComputer = false
    /// The rig's two hosts for the network transports; nil when it has none (tcp scenarios are then an error).
    package var network: NetworkHosts?
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
            throw RunContextError(.hosts, "\(what) needs the rig's two hosts (network namespaces with avahi-daemon, HIL_NET_*), and this rig has none: run in the vm rig, or see `hil doctor`")
        }
        return network
    }

    package init(hil: String, peripheralAdapter: String, centralAdapter: String, uinputName: String, latencyScale: Double,
                writePath: WritePath?, workDirectory: String)
    {
        self.hil = hil
        self.peripheralAdapter = peripheralAdapter
        self.centralAdapter = centralAdapter
        self.uinputName = uinputName
        self.latencyScale = latencyScale
        self.writePath = writePath
        self.workDirectory = workDirectory
    }

    /// This context on lane `index` (from 0) of `lanes`: its adapters, and from the second lane on, a uinput
    /// device name of its own ("… (lane 2)"), so each lane's verifier reads its own computer's device.
    package func lane(_ index: Int, of lanes: [RigEnvironment.Lane]) -> RunContext {
        var context = self
        context.peripheralAdapter = lanes[index].peripheral
        context.centralAdapter = lanes[index].central
        context.onlyThisComputer = lanes.count > 1
        if index > 0 {
            let suffix = " (lane \(index + 1))"
            context.uinputName = String(decoding: uinputName.utf8.prefix(79 - suffix.utf8.count), as: UTF8.self) + suffix
        }
        return context
    }
}
