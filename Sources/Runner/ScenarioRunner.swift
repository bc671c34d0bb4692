package import BumblePhone
package import RunContext
import ScenarioDriver
import PhoneLinks
import Foundation
package import Scenario
import ComputerProcess
import Evidence
import Verifier
package import Records

/// Runs scenarios over the real link inside a rig that is up: a fresh `hil peripheral` per scenario on the
/// peripheral adapter, the phone's gesture model driven in real time on the central adapter, and the uinput
/// device's frames judged step by step.
package struct ScenarioRunner: Sendable {
    package let context: RunContext
    /// The run's Bumble phones (`hil run --phone bumble`); nil when every scenario runs on the BlueZ phone.
    let bumble: BumblePhones?
    let standby = StandbyComputer()

    package init(context: RunContext, bumble: BumblePhones? = nil) {
        self.context = context
        self.bumble = bumble
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
        if !transport.isNetwork { result.phone = (scenario.run.phone.stack == .bumble ? scenario.run.phone : PhoneChoice(stack: .bluez)).description }
        let phases = PhaseLog(start: start)
        if scenario.run.uinput == .denied {
            await standby.discard()
            return await refusal(scenario, folder: folder, start: start, result: result)
        }
        var timing = context.timing
        timing?.overNetwork = transport.isNetwork
        let options = ScenarioDriver.Options(latencyScale: context.latencyScale, failFast: context.failFast, timing: timing)
        let revived = await context.runCapture?.revive() ?? []
        let capture = ScenarioCapture(
            context.capture, transport: transport, folder: folder, relativeFolder: (folder as NSString).lastPathComponent,
            run: context.runCapture, revived: revived)
        // Setup and steps run apart, where an interrupt cancels them; the teardown below runs whatever they did.
        let parts = ScenarioParts()
        var findings = ScenarioFindings()
        do {
            let work: @Sendable () async throws -> ScenarioParts.Judged = { [self] in
                try await setUpAndDrive(scenario, folder: folder, transport: transport, next: next, options: options,
                                        phases: phases, parts: parts)
            }
            let judged = if let stop = context.stop { try await stop.cancellable(work) } else { try await work() }
            result.message += parts.note
            findings = judged.findings
            result.message += judged.message
            result.statusNotifications = judged.statusNotifications
        } catch {
            let why = error is CancellationError ? "interrupted: the scenario was cancelled" : "\(error)"
            findings.errors.append(why)
            result.message += parts.note
            result.message += why + "\n"
        }
        let (phone, computer, drive) = (parts.phone, parts.computer, parts.drive)
        await finish(&result, &findings, phone: phone, computer: computer, drive: drive, scenario: scenario, options: options, phases: phases)
        result.outcome = Judge.outcome(findings)
        capture.stop()
        result.captures = capture.finish(result, interrupted: context.stop?.wasInterrupted ?? false) {
            ScenarioEvidence(
                device: context.uinputName, frames: computer?.allFrames, droppedCount: computer?.droppedCount ?? 0,
                sends: drive?.sends ?? [], receipts: computer?.receipts() ?? [],
                windows: drive?.shownWindows ?? [:])
        }
        if !result.captures.isEmpty { phases.record("captures written") }
        context.scratch?.saveLater((folder as NSString).lastPathComponent)
        result.durationMs = (ContinuousClock.now - start).milliseconds
        result.phasesMs = phases.phases
        return result
    }

    /// The scenario's end: checks done, the phone's link tears itself down while the computer stops (each
    /// transport knows when the computer may stop, `PhoneLink.tearDown`), and the stopped computer's receipts are read.
    private func finish(_ result: inout ScenarioResult, _ findings: inout ScenarioFindings, phone: (any PhoneLink)?,
                        computer: PeripheralComputer?, drive: ScenarioDriver.Drive?, scenario: Scenario,
                        options: ScenarioDriver.Options, phases: PhaseLog) async
    {
        phases.record("checks done")
        if let computer { await noteEarlyExit(computer, result: &result, findings: &findings) }
        if let computer, let bumble = phone as? BumblePhoneLink, bumble.host.hasEnded {
            let release = await PhoneDeathRelease.after(bumble.host.endedAt, of: computer, supervisionTimeoutMs: context.rig.supervisionTimeoutMs,
                                                        latencyScale: context.latencyScale)
            notePhoneDeath(release, result: &result, findings: &findings)
        }
        let stopComputer: @Sendable () async -> Void = {
            guard let computer else { return }
            await computer.stop()
            phases.record("peripheral stopped")
        }
        if let phone {
            let teardown = await phone.tearDown(erred: !findings.errors.isEmpty, phase: phases.record, stopComputer: stopComputer)
            findings.teardownProblems += teardown.problems
            for problem in teardown.problems { result.message += problem + "\n" }
            for note in teardown.notes { result.message += note + "\n" }
            if let why = teardown.rigBroken {
                // The rig did not do its part: no verdict of the scenario stands.
                findings.errors.append(why)
                result.rigBroken = result.rigBroken ?? why
            }
        } else {
            await stopComputer()
        }
        if let computer, let drive {
            judgeSteps(computer, drive: drive, scenario: scenario, options: options, result: &result, findings: &findings)
        }
    }

    /// Stops the computer started ahead for a next scenario that will not run (the last one, or an interrupted run).
    package func finish() async {
        await standby.discard()
    }

    /// A computer that exited during the scenario is an error. A killed computer fails the phone's next D-Bus call
    /// at once (its objects are gone), sooner than its exit is reaped: so when the scenario erred with the computer
    /// still counted as running, its exit is awaited for a second, and the verdict does not depend on which came first.
    private func noteEarlyExit(_ computer: PeripheralComputer, result: inout ScenarioResult, findings: inout ScenarioFindings) async {
        let current = computer.current
        if current.isRunning {
            guard !findings.errors.isEmpty, await current.child.exitStatus(timeout: .seconds(1)) != nil else { return }
        }
        findings.errors.append("the device under test (hil peripheral) exited during the scenario")
        result.message += "the device under test (hil peripheral) exited during the scenario; its last lines:\n\(current.lastLines(15))\n"
    }

    /// The Bumble phone's process died: its link goes (in the vm rig when its adapter is reset, soon after; with a
    /// real radio at the supervision timeout), and the computer must let go of everything then (R12). What it held
    /// when the phone died and when each was let go come from its frames (`PhoneDeathRelease`: the runner may learn
    /// of the death long after, at the phone's next write); what is not let go by the supervision timeout and 2 s ×
    /// the latency scale after the death fails the scenario.
    private func notePhoneDeath(_ release: PhoneDeathRelease, result: inout ScenarioResult, findings: inout ScenarioFindings) {
        result.message += "the phone's host died: \(release.note)\n"
        if !release.stillHeld.isEmpty {
            findings.failures.append("the computer still held \(release.stillHeld.joined(separator: ", ")) after the phone's host died (R12: a lost link releases everything)")
        }
        if findings.errors.isEmpty { findings.errors.append("the Bumble phone's process exited during the scenario") }
    }

    /// The steps judged, once, when the stopped computer's receipts are complete: the evidence of the drive with each
    /// step's latency stages, the commands it received (R11.2), every command accounted for (`CommandAccounting`; not
    /// when the kernel dropped events or the scenario erred: the frames are not whole) and the time rules. The one
    /// place a scenario's steps reach its findings.
    private func judgeSteps(_ computer: PeripheralComputer, drive: ScenarioDriver.Drive, scenario: Scenario,
                            options: ScenarioDriver.Options, result: inout ScenarioResult, findings: inout ScenarioFindings)
    {
        let frames = computer.droppedEvents || !findings.errors.isEmpty ? nil : computer.allFrames
        let judged = drive.judged(receipts: computer.receipts(), frames: frames, scenario: scenario, options: options)
        result.steps = judged.steps
        findings.steps = judged.steps.map(\.outcome)
        findings.failures += judged.failures
        for failure in judged.failures { result.message += failure + "\n" }
    }

    func folder(_ scenario: Scenario, number: Int) -> String {
        "\(context.scratch?.path ?? context.workDirectory)/\(String(format: "%03d", number))-\(Self.slug(scenario.name))"
    }

    /// The phone's link for `transport`; it starts looking for the computer at once (BLE: the phone scans first,
    /// then the computer advertises; see BlueZCentral.startDiscovery).
    func link(_ scenario: Scenario, transport: Transport, phases: PhaseLog) async throws -> any PhoneLink {
        switch transport {
        // A `where` binds to the pattern before it alone: each transport says it.
        case .ble where scenario.run.phone.stack == .bumble, .hid where scenario.run.phone.stack == .bumble:
            guard let bumble else {
                throw RunnerError(.phone, "the scenario runs on the Bumble phone (\(scenario.run.phone)), and this run started none: hil run --phone bumble")
            }
            let link = try await BumblePhoneLink(host: try await bumble.host(on: context.centralAdapter), settings: .init(
                rig: context.rig, peripheralAdapter: context.peripheralAdapter, phone: scenario.run.phone, reports: transport == .hid))
            phases.record("phone ready")
            return link
        case .ble, .hid:
            let link = try await BLEPhoneLink(centralAdapter: context.centralAdapter, settings: .init(
                rig: context.rig, peripheralAdapter: context.peripheralAdapter, writePath: context.writePath ?? scenario.run.writePath,
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
            lockoutSeconds: scenario.run.lockoutSeconds, roster: context.stop?.computers)
        guard transport.isNetwork else { return launch }
        // A computer serves every network transport, as a product does: another phone may come on the other one
        // (`otherPhone` steps), and pairing is per transport.
        let others = [Transport.tcp, .udp].filter { $0 != transport }.map(\.rawValue)
        return launch.serving([transport.rawValue] + others, on: try context.networkHosts(for: "the \(transport.rawValue) transport"))
    }

    static func slug(_ name: String) -> String {
        String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40))
    }
}
