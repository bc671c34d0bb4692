import Foundation
import RigControl
import Scenario
import ComputerProcess
import Records
import Verifier

extension ScenarioRunner {
    /// R10: the computer started without permission to open uinput must refuse to start, saying why, and
    /// never register with bluetoothd (it would run while dropping every command).
    func refusal(_ scenario: Scenario, folder: String, start: ContinuousClock.Instant, result: ScenarioResult) async -> ScenarioResult {
        var result = await finishRefusal(scenario, folder: folder, result: result)
        context.scratch?.saveLater((folder as NSString).lastPathComponent)
        result.durationMs = (ContinuousClock.now - start).milliseconds
        return result
    }

    private func finishRefusal(_ scenario: Scenario, folder: String, result: ScenarioResult) async -> ScenarioResult {
        var result = result
        let node: DeniedUinputNode
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            node = try DeniedUinputNode()
        } catch {
            result.message = "\(error)\n"
            return result
        }
        defer { node.remove() }
        let peripheral: PeripheralUnderTest
        do {
            peripheral = try PeripheralUnderTest.spawn(.init(
                hil: context.hil, adapter: context.peripheralAdapter, uinputName: context.uinputName, folder: folder,
                uinputPath: node.path, launcher: node.launcher, roster: context.stop?.computers))
        } catch {
            result.message = "\(error)\n"
            return result
        }
        guard let status = await peripheral.waitForExit(timeout: .seconds(10)) else {
            await peripheral.stop()
            var findings = ScenarioFindings()
            findings.failures = ["the computer kept running for 10 s without permission to use uinput (R10: it must refuse to start)"]
            result.outcome = Judge.outcome(findings)
            result.message = "\(findings.failures[0]); its last lines:\n\(peripheral.lastLines(10))\n"
            return result
        }
        let output = peripheral.log
        var problems: [String] = []
        if status == 0 { problems.append("the computer exited with status 0; a refusal exits non-zero") }
        if output.contains("registered on") || FileManager.default.fileExists(atPath: peripheral.readyFile) {
            problems.append("the computer registered with bluetoothd before refusing")
        }
        for text in scenario.expectedRefusal ?? [] where !output.contains(text) {
            problems.append("the refusal does not mention \(text.debugDescription)")
        }
        var findings = ScenarioFindings()
        findings.failures = problems
        result.outcome = Judge.outcome(findings)
        result.message = problems.isEmpty
            ? "refused to start (exit \(status)): \(output.split(separator: "\n").last.map(String.init) ?? "")\n"
            : (problems + ["its output:", peripheral.lastLines(10)]).joined(separator: "\n") + "\n"
        result.steps = scenario.script.steps.enumerated().map { index, step in
            Judge.step(StepEvidence(index: index, kind: step.name, notes: ["not run: the computer refused to start"]))
        }
        return result
    }
}
