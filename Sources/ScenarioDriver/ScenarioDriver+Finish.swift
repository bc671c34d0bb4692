package import InputCodes
import RemoteTouchProtocol
package import Scenario
package import Verifier
package import Records

extension ScenarioDriver.Drive {
    /// What the scenario's steps and the checks of its end found (`Judge.outcome` decides from it): the steps, what
    /// the computer holds at the end (nothing may be held: R12's release, seen in the kernel's key state),
    /// SYN_DROPPED, the scenario-level problems and the latency limits; the message lists every problem.
    package func findings(heldAtEnd held: [String], droppedEvents: Bool, scenario: Scenario,
                          options: ScenarioDriver.Options) -> (findings: ScenarioFindings, message: String)
    {
        var findings = ScenarioFindings()
        findings.failures = problems
        var message = (problems + notes).map { $0 + "\n" }.joined()
        if !held.isEmpty {
            let line = "held at the end of the scenario: \(held.joined(separator: ", "))"
            findings.failures.append(line)
            message += line + "\n"
        }
        if droppedEvents {
            findings.droppedEvents = true
            message += "the kernel dropped events (SYN_DROPPED): the verdict is inconclusive\n"
        }
        if options.judged.contains(.limits) {
            let latencies = evidence.compactMap(\.latencyMs)
            for problem in Judge.limits(scenario.limits, latencies: latencies, scale: options.latencyScale) {
                findings.failures.append(problem)
                message += problem + "\n"
            }
        }
        return (findings, message)
    }

    /// The steps judged, once every check is in (the computer stopped, its receipts complete): the evidence gathered
    /// while driving, with what the receipts tell (`withReceipts`), the accounting (`frames`: nil when the frames are
    /// not whole) and the time rules; and the problems of those checks that belong to no step, for the scenario.
    package func judged(receipts: [StageBreakdown.Receipt], frames: [EvdevFrame]?, scenario: Scenario,
                        options: ScenarioDriver.Options) -> (steps: [StepResult], failures: [String])
    {
        let received = withReceipts(receipts, scenario: scenario, options: options)
        let accounted = accounted(received, receipts: receipts, frames: frames, scenario: scenario, options: options)
        let timed = timed(accounted.steps, receipts: receipts, scenario: scenario, options: options)
        return (timed.steps.map(Judge.step), accounted.failures + timed.failures)
    }

    /// The evidence with what the computer's receipts tell: each judged step's latency split into stages, and the
    /// commands it received during each step that names a count (R11.2).
    func withReceipts(_ receipts: [StageBreakdown.Receipt], scenario: Scenario, options: ScenarioDriver.Options) -> [StepEvidence] {
        // Each index is built once for the run and searched per step: a pass over every send and receipt per step
        // made a long replay quadratic (issue 39).
        var steps = evidence
        let alignment = StageBreakdown.align(sends, receipts)
        let writes = StageBreakdown.Writes(sends: sends, receipts: receipts, alignment: alignment)
        for index in steps.indices {
            guard let first = steps[index].firstSendNs, let completed = steps[index].completedNs else { continue }
            steps[index].stagesMs = writes.stages(firstSend: first, completed: completed)?.byStage
        }
        guard options.judged.contains(.received) else { return steps }
        let stepReceipts = StepReceipts(sends: sends, receipts: receipts, alignment: alignment)
        let started = windows.keys.sorted()
        let nextStarts = Dictionary(uniqueKeysWithValues: zip(started, started.dropFirst().map { windows[$0]!.start }))
        for position in steps.indices {
            let index = steps[position].index
            guard let wanted = scenario.expectations[index].received, let window = windows[index] else { continue }
            let writes = stepReceipts.during(window, nextStart: nextStarts[index])
                .map { receipt in
                    ReceivedWrite(at: MonotonicTime(nanoseconds: receipt.received),
                                  command: (try? Command.decode(Array(receipt.payload.utf8)))?.name ?? PointerPayload.kind(ofText: receipt.payload),
                                  refused: receipt.written == nil)
                }
            steps[position].add(judged: true, problems: Judge.received(wanted, writes))
        }
        return steps
    }
}
