import ScenarioDriver
import PhoneLinks
import DBus
import Evdev
import InputCodes
import Foundation
import GestureModel
import GestureScript
import RemoteTouchProtocol
package import Rig
package import Scenario
import Verifier
import ComputerProcess
package import Evidence
package import Records

/// Runs scenarios over the real link inside a rig that is up: a fresh `hil peripheral` per scenario on the
/// peripheral adapter, the phone's gesture model driven in real time on the central adapter, and the uinput
/// device's frames judged step by step.
package struct ScenarioRunner: Sendable {
    package struct Context: Sendable {
        /// The `hil` executable (for the peripheral).
        package var hil: String
        package var peripheralAdapter: String
        package var centralAdapter: String
        package var uinputName: String
        /// Multiplies every deadline and latency limit (the rig's `latencyScale`).
        package var latencyScale: Double
        /// Overrides each scenario's write path when set.
        package var writePath: RunSettings.WritePath?
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
                throw RunnerError(.hosts, "\(what) needs the rig's two hosts (network namespaces with avahi-daemon, HIL_NET_*), and this rig has none: run in the vm rig, or see `hil doctor`")
            }
            return network
        }

        package init(hil: String, peripheralAdapter: String, centralAdapter: String, uinputName: String, latencyScale: Double,
                    writePath: RunSettings.WritePath?, workDirectory: String)
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
        package func lane(_ index: Int, of lanes: [RigEnvironment.Lane]) -> Context {
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

    package let context: Context
    let standby = StandbyComputer()

    package init(context: Context) {
        self.context = context
    }

    /// Runs one scenario; never throws: rig and device failures become an `error` result with the reason.
    /// With `next`, the next scenario's computer is started, held, while this one runs (`StandbyComputer`).
    package func run(_ given: Scenario, number: Int, transport: Transport = .ble,
                    next: (scenario: Scenario, number: Int, transport: Transport)? = nil) async -> ScenarioResult
    {
        let scenario = context.sendJitterMs.map { jitter in
            var jittered = given
            jittered.run.sendJitterMs = jitter
            return jittered
        } ?? given
        let start = ContinuousClock.now
        let folder = self.folder(scenario, number: number)
        var result = ScenarioResult(
            file: scenario.file, name: scenario.name, requirements: scenario.script.requirements, outcome: .error, steps: [],
            message: "", durationMs: 0)
        result.transport = transport.rawValue
        let phases = PhaseLog(start: start)
        if scenario.run.uinput == .denied {
            await standby.discard()
            return await refusal(scenario, folder: folder, start: start, result: result)
        }
        let options = ScenarioDriver.Options(latencyScale: context.latencyScale, failFast: context.failFast)
        let capture = ScenarioCapture(
            context.capture, transport: transport, folder: folder, relativeFolder: (folder as NSString).lastPathComponent,
            run: context.runCapture)
        // Setup and steps run apart, where an interrupt cancels them; the teardown below runs whatever they did.
        let parts = ScenarioParts()
        do {
            let work: @Sendable () async throws -> ScenarioParts.Judged = { [self] in
                try await setUpAndDrive(scenario, folder: folder, transport: transport, next: next, options: options,
                                        phases: phases, parts: parts)
            }
            let judged = if let stop = context.stop { try await stop.cancellable(work) } else { try await work() }
            result.message += parts.note
            result.steps = judged.steps
            result.outcome = judged.outcome
            result.message += judged.message
            result.statusNotifications = judged.statusNotifications
        } catch {
            result.outcome = .error
            result.message += parts.note
            result.message += error is CancellationError ? "interrupted: the scenario was cancelled\n" : "\(error)\n"
        }
        let (phone, computer, drive) = (parts.phone, parts.computer, parts.drive)
        await finish(&result, phone: phone, computer: computer, drive: drive, scenario: scenario, options: options, phases: phases)
        capture.stop()
        result.captures = capture.finish(result, interrupted: context.stop?.wasInterrupted ?? false) {
            ScenarioEvidence(
                device: context.uinputName, frames: computer?.allFrames, droppedCount: computer?.droppedCount ?? 0,
                sends: drive?.sends ?? [], receipts: computer?.receipts() ?? [],
                windows: (drive?.windows ?? [:]).mapValues { $0.start.nanoseconds...max($0.start.nanoseconds, $0.end.nanoseconds) })
        }
        if !result.captures.isEmpty { phases.record("captures written") }
        context.scratch?.saveLater((folder as NSString).lastPathComponent)
        result.durationMs = (ContinuousClock.now - start).milliseconds
        result.phasesMs = phases.phases
        return result
    }

    /// The scenario's end: checks done, the phone's link tears itself down while the computer stops (each
    /// transport knows when the computer may stop, `PhoneLink.tearDown`), and the stopped computer's receipts are read.
    private func finish(_ result: inout ScenarioResult, phone: (any PhoneLink)?, computer: PeripheralComputer?,
                        drive: ScenarioDriver.Drive?, scenario: Scenario, options: ScenarioDriver.Options, phases: PhaseLog) async
    {
        phases.record("checks done")
        if let computer { await noteEarlyExit(computer, result: &result) }
        let stopComputer: @Sendable () async -> Void = {
            guard let computer else { return }
            await computer.stop()
            phases.record("peripheral stopped")
        }
        if let phone {
            let teardown = await phone.tearDown(erred: result.outcome == .error, phase: phases.record, stopComputer: stopComputer)
            for problem in teardown.problems {
                if result.outcome == .passed { result.outcome = .error }
                result.message += problem + "\n"
            }
            for note in teardown.notes { result.message += note + "\n" }
            if let why = teardown.rigBroken { result.rigBroke(why) }
        } else {
            await stopComputer()
        }
        if let computer { addReceipts(computer, drive: drive, scenario: scenario, options: options, result: &result) }
    }

    /// Stops the computer started ahead for a next scenario that will not run (the last one, or an interrupted run).
    package func finish() async {
        await standby.discard()
    }

    /// A computer that exited during the scenario is an error. A killed computer fails the phone's next D-Bus call
    /// at once (its objects are gone), sooner than its exit is reaped: so when the scenario erred with the computer
    /// still counted as running, its exit is awaited for a second, and the verdict does not depend on which came first.
    private func noteEarlyExit(_ computer: PeripheralComputer, result: inout ScenarioResult) async {
        let current = computer.current
        if current.isRunning {
            guard result.outcome == .error, await current.child.exitStatus(timeout: .seconds(1)) != nil else { return }
        }
        if result.outcome != .error { result.outcome = .error }
        result.message += "the device under test (hil peripheral) exited during the scenario; its last lines:\n\(current.lastLines(15))\n"
    }

    /// What the stopped computer's receipts tell: each step's latency stages and the commands it received (R11.2).
    private func addReceipts(_ computer: PeripheralComputer, drive: ScenarioDriver.Drive?, scenario: Scenario,
                             options: ScenarioDriver.Options, result: inout ScenarioResult)
    {
        guard let drive, !result.steps.isEmpty else { return }
        result.steps = drive.steps(withReceipts: computer.receipts(), scenario: scenario, options: options)
        if result.outcome == .passed && result.steps.contains(where: { $0.outcome == .failed }) { result.outcome = .failed }
    }

    func folder(_ scenario: Scenario, number: Int) -> String {
        "\(context.scratch?.path ?? context.workDirectory)/\(String(format: "%03d", number))-\(Self.slug(scenario.name))"
    }

    /// The phone's link for `transport`; it starts looking for the computer at once (BLE: the phone scans first,
    /// then the computer advertises; see BlueZCentral.startDiscovery).
    func link(_ scenario: Scenario, transport: Transport, phases: PhaseLog) async throws -> any PhoneLink {
        switch transport {
        case .ble, .hid:
            let link = try await BLEPhoneLink(centralAdapter: context.centralAdapter, settings: .init(
                peripheralAdapter: context.peripheralAdapter, writePath: context.writePath ?? scenario.run.writePath,
                latencyScale: context.latencyScale, emulatedControllers: context.emulatedControllers,
                onlyThisComputer: context.onlyThisComputer, reports: transport == .hid))
            phases.record("phone scanning")
            return link
        case .tcp, .udp:
            let hosts = try context.networkHosts(for: "the \(transport.rawValue) transport")
            return try await TCPPhoneLink(
                settings: .init(hosts, latencyScale: context.latencyScale, udp: transport == .udp), phase: phases.record)
        }
    }

    func launch(_ scenario: Scenario, folder: String, transport: Transport = .ble) throws -> PeripheralUnderTest.Launch {
        let launch = PeripheralUnderTest.Launch(
            hil: context.hil, adapter: context.peripheralAdapter, uinputName: context.uinputName, folder: folder,
            lockoutSeconds: scenario.run.lockoutSeconds)
        guard transport.isNetwork else { return launch }
        return launch.serving([transport.rawValue], on: try context.networkHosts(for: "the \(transport.rawValue) transport"))
    }

    static func slug(_ name: String) -> String {
        String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40))
    }
}
