import Foundation
import ScenarioDriver
import Scenario
import ComputerProcess

extension ScenarioRunner {
    /// A scenario's setup and steps: its link, its computer (the one started ahead, or a fresh one), the next
    /// scenario's computer started ahead, the steps driven and the end checked (nothing held). Run where an
    /// interrupt cancels it; what it made is in `parts` for the teardown.
    func setUpAndDrive(_ scenario: Scenario, folder: String, transport: Transport,
                       next: (scenario: Scenario, number: Int, transport: Transport)?, options: ScenarioDriver.Options,
                       phases: PhaseLog, parts: ScenarioParts) async throws -> ScenarioParts.Judged
    {
        let link = try await self.link(scenario, transport: transport, phases: phases)
        parts.phone = link
        let launch = try self.launch(scenario, folder: folder, transport: transport)
        let (prepared, note) = await standby.take(for: launch)
        if let note { parts.note = note }
        // The interrupt stopped every computer that ran then, the one held for this scenario too: none starts after it.
        if context.stop?.wasInterrupted == true {
            await prepared?.stop()
            throw RunnerError(.interrupted, "the run was interrupted before this scenario's computer started")
        }
        // The next scenario's computer starts now, held, so its half-second start overlaps this one's
        // registration, connection and pairing rather than its steps, whose latency is measured. It waits idle,
        // with no uinput device and nothing on the bus, until that scenario releases it.
        if let next, next.scenario.run.uinput != .denied,
           let launch = try? self.launch(next.scenario, folder: self.folder(next.scenario, number: next.number), transport: next.transport)
        {
            await standby.prepare(launch)
        }
        let device = try await PeripheralComputer(launch, prepared: prepared, phase: phases.record)
        parts.computer = device
        let driver = ScenarioDriver(scenario: scenario, phone: link, computer: device, clock: RealTimeClock(), options: options,
                                    phase: phases.record)
        defer { try? driver.commandLog.write(toFile: folder + "/commands.log", atomically: true, encoding: .utf8) }
        let driven = try await driver.run()
        parts.drive = driven
        try? driver.devices.json().write(toFile: folder + "/devices.json", atomically: true, encoding: .utf8)
        // Nothing may be held at the end of a scenario (EVIOCGKEY: the kernel's view), once 50 ms passed for a release.
        let held = try await device.heldKeys(settling: .milliseconds(50))
        let verdict = driven.findings(heldAtEnd: held, droppedEvents: device.droppedEvents, scenario: scenario, options: options)
        return ScenarioParts.Judged(findings: verdict.findings, message: verdict.message,
                                    statusNotifications: link.statusCount)
    }
}
