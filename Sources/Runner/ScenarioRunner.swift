package import ScenarioDriver
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
        /// The run's stop: once it was interrupted, no computer starts, and a scenario still under way (not kept) makes
        /// no timeline (tshark's start alone took 7-11 s in the TCG guest, and the vm rig gives an interrupted job 30 s).
        package var stop: RunStop?

        /// The rig's two hosts, or the error that `what` needs them and this rig has none.
        package func networkHosts(for what: String) throws -> NetworkHosts {
            guard let network else {
                throw RunnerError("\(what) needs the rig's two hosts (network namespaces with avahi-daemon, HIL_NET_*), and this rig has none: run in the vm rig, or see `hil doctor`")
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
    package func run(_ scenario: Scenario, number: Int, transport: Transport = .ble,
                    next: (scenario: Scenario, number: Int, transport: Transport)? = nil) async -> ScenarioResult
    {
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
        let capture = await ScenarioCapture.start(
            context.capture, transport: transport, folder: folder, relativeFolder: (folder as NSString).lastPathComponent,
            adapter: context.peripheralAdapter, phoneNetns: context.network?.phoneNetns)
        if context.capture != .never { phases.record("capture started") }
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
        await capture.stop()
        if context.capture != .never { phases.record("capture stopped") }
        result.captures = capture.finish(result, interrupted: context.stop?.wasInterrupted ?? false) {
            ScenarioEvidence(
                device: context.uinputName, frames: computer?.allFrames, droppedCount: computer?.droppedCount ?? 0,
                sends: drive?.sends ?? [], receipts: computer?.receipts() ?? [],
                windows: (drive?.windows ?? [:]).mapValues { $0.start.nanoseconds...max($0.start.nanoseconds, $0.end.nanoseconds) })
        }
        if !result.captures.isEmpty { phases.record("captures written") }
        context.scratch?.saveLater((folder as NSString).lastPathComponent)
        result.durationMs = (ContinuousClock.now - start).milliseconds
        result.phases = phases.phases
        return result
    }

    /// The scenario's end: the phone stops listening, the link goes down, the computer stops while the phone
    /// forgets it, and the receipts are read. The peripheral's adapter is powered on again only once the computer
    /// has stopped: with its advertisement still registered, the kernel resumes advertising at power-on, and
    /// btvirt's emulated controller sometimes times that out (`command 0x2006 tx timeout`) and, once in a long run,
    /// never answers again, which made every later scenario an error.
    private func finish(_ result: inout ScenarioResult, phone: (any PhoneLink)?, computer: PeripheralComputer?,
                        drive: ScenarioDriver.Drive?, scenario: Scenario, options: ScenarioDriver.Options, phases: PhaseLog) async
    {
        // As the phone app stops listening when it leaves the computer: before the computer stops.
        (phone as? BLEPhoneLink)?.statusWatcher.stop()
        phases.record("checks done")
        if let computer { noteEarlyExit(computer, result: &result) }
        // The link goes first, then the computer stops while the phone forgets it. Not both at once: the phone's
        // bluetoothd subscribes again on every reconnect, so bluetoothd may be waiting for the computer's answer to
        // AcquireNotify, and an UnregisterApplication it takes then frees the characteristic under that call
        // (bluez issue #525): bluetoothd 5.66 crashed so at the end of "the phone gives up after the last
        // reconnect attempt". With the link down first, bluetoothd drops the pending call instead.
        let ble = phone as? BLEPhoneLink
        var linkDown = true
        if let ble { linkDown = await powerOffComputersAdapter(ble, result: &result) }
        async let computerStopped = computer?.stop()
        if let ble, ble.remote != nil {
            if linkDown { linkDown = await dropLink(ble, result: &result) }
            phases.record("link down, computer forgotten")
        } else if let phone = phone as? TCPPhoneLink {
            phone.close()
        }
        _ = await computerStopped
        if let computer {
            phases.record("peripheral stopped")
            addReceipts(computer, drive: drive, scenario: scenario, options: options, result: &result)
        }
        if let ble { await restoreAdapters(ble, linkDown: linkDown, result: &result, phases: phases) }
    }

    /// Stops the computer started ahead for a next scenario that will not run (the last one, or an interrupted run).
    package func finish() async {
        await standby.discard()
    }

    /// A computer that exited during the scenario is an error.
    private func noteEarlyExit(_ computer: PeripheralComputer, result: inout ScenarioResult) {
        let current = computer.current
        guard !current.isRunning else { return }
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

    /// The next scenario is a new phone: the link goes, and the phone forgets the computer so no cached services
    /// or connection state carry over. Powering the peripheral's adapter off drops the link at once, where
    /// BlueZ's Disconnect (and RemoveDevice on a live link) give profiles 2 s first; BlueZ answers once the kernel
    /// has closed the adapter's connections. Returns false when that failed (the scenario is then an error).
    private func powerOffComputersAdapter(_ phone: BLEPhoneLink, result: inout ScenarioResult) async -> Bool {
        guard phone.remote != nil else { return true }
        do {
            try await phone.central.setPowered(context.peripheralAdapter, false)
            return true
        } catch {
            if result.outcome == .passed { result.outcome = .error }
            result.message += "tearing the link down failed: \(error)\n"
            return false
        }
    }

    /// After the computer's adapter went off: the phone sees the link down and forgets the computer.
    private func dropLink(_ phone: BLEPhoneLink, result: inout ScenarioResult) async -> Bool {
        guard let remote = phone.remote else { return true }
        do {
            try await phone.waitUntilDisconnected(remote, what: "the end of the scenario", within: .seconds(30))
            try await phone.central.forget(remote)
            return true
        } catch {
            if result.outcome == .passed { result.outcome = .error }
            result.message += "tearing the link down failed: \(error)\n"
            return false
        }
    }

    /// After the computer stopped: the peripheral's adapter is powered on for the next scenario. After an error the
    /// phone's adapter is powered off and on too, which drops a connection attempt left pending (BlueZ then answers
    /// every Connect with "Operation already in progress", and one error became every later scenario's), and it
    /// forgets every device it knew.
    private func restoreAdapters(_ phone: BLEPhoneLink, linkDown: Bool, result: inout ScenarioResult, phases: PhaseLog) async {
        let central = phone.central
        let adapterOn = await powerOnComputersAdapter(central, result: &result)
        phases.record("computer's adapter on")
        guard result.outcome == .error || !linkDown || !adapterOn else { return }
        do {
            try await central.setPowered(context.centralAdapter, false)
            try await central.waitUntilPowered(context.centralAdapter, false)
            // BlueZ removes devices only on a powered adapter (RemoveDevice answers NotReady otherwise).
            _ = try await BLEPhoneLink.powerOn(context.centralAdapter, central)
            let forgotten = try await central.forgetAllDevices()
            result.message += "rig: after the error the phone's adapter \(context.centralAdapter) was powered off and on and \(forgotten) device(s) forgotten, for the next scenario\n"
        } catch {
            result.message += "rig: resetting the phone's adapter after the error failed, the next scenario may be affected: \(error)\n"
            do {
                _ = try await BLEPhoneLink.powerOn(context.centralAdapter, central)
            } catch {
                result.rigBroke("the phone's adapter \(context.centralAdapter) no longer powers on (\(error))")
            }
        }
        phases.record("phone reset after the error")
    }

    /// Powers the computer's adapter on for the next scenario, also when the phone never connected: a computer that
    /// could not power it on is found here too. One that no longer powers on breaks the rig (`rigBroken`): the run
    /// stops instead of failing every later scenario. Returns whether it is on.
    private func powerOnComputersAdapter(_ central: BlueZCentral, result: inout ScenarioResult) async -> Bool {
        do {
            let tries = try await BLEPhoneLink.powerOn(context.peripheralAdapter, central)
            if tries > 1 {
                result.message += "rig: \(context.peripheralAdapter) powered on at try \(tries) after the scenario (the emulated controller timed out a command; dmesg has it)\n"
            }
            return true
        } catch {
            result.message += "rig: the computer's adapter did not power on again after the scenario: \(error)\n"
            result.rigBroke("the computer's adapter \(context.peripheralAdapter) no longer powers on (\(error))")
            return false
        }
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
