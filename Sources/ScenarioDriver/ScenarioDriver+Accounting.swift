package import InputCodes
package import Scenario
package import Verifier

extension ScenarioDriver.Drive {
    /// What the accounting oracle needs of this drive, with the computer's receipts and its device's frames (complete
    /// once it stopped); each send with the step that sent it.
    package func accountingRecord(receipts: [StageBreakdown.Receipt], frames: [EvdevFrame], scenario: Scenario) -> AccountingRecord {
        let starts = windows.sorted { $0.key < $1.key }.map { (start: $0.value.start.nanoseconds, step: $0.key) }
        func step(at time: UInt64) -> Int {
            starts.last { $0.start <= time }?.step ?? starts.first?.step ?? 0
        }
        let sent = sends.map { AccountingRecord.Sent(at: $0.at, payload: $0.payload, step: step(at: $0.at)) }
        return AccountingRecord(sends: sent, receipts: receipts, frames: frames, events: accountingEvents,
                                pairedFromStart: scenario.run.pairing == .pair)
    }

    /// `steps` with the accounting's problems added to the step each belongs to (failing it); the problems that
    /// belong to no step, for the scenario. Nothing when the run does not judge it (`Check.accounting`).
    func accounted(_ steps: [StepEvidence], receipts: [StageBreakdown.Receipt], frames: [EvdevFrame]?,
                   scenario: Scenario, options: ScenarioDriver.Options) -> (steps: [StepEvidence], failures: [String])
    {
        guard options.judged.contains(.accounting), let frames, let origin = windows.values.map(\.start).min() else {
            return (steps, [])
        }
        let checks = Set(RunCheck.accounting.filter { scenario.checksOff[$0] == nil })
        let record = accountingRecord(receipts: receipts, frames: frames, scenario: scenario)
        let problems = CommandAccounting(record, checks: checks, origin: origin.nanoseconds).problems()
        var steps = steps
        var failures: [String] = []
        for problem in problems {
            if let index = problem.step, let position = steps.firstIndex(where: { $0.index == index }) {
                // After the step's own problems: the most specific reason first.
                steps[position].add(judged: true, problems: ["accounting: " + problem.text])
            } else {
                failures.append("accounting: " + problem.text)
            }
        }
        return (steps, failures)
    }

    /// `steps` with the time rules judged (`StageRule`): each step's link stage against its link's model, and the
    /// computer's own stage over the scenario. Nothing when the run does not judge them (`Options.timing`).
    func timed(_ steps: [StepEvidence], receipts: [StageBreakdown.Receipt], scenario: Scenario,
               options: ScenarioDriver.Options) -> (steps: [StepEvidence], failures: [String])
    {
        guard let timing = options.timing else { return (steps, []) }
        var steps = steps
        var failures: [String] = []
        func fail(_ index: Int?, _ text: String) {
            guard let index, let position = steps.firstIndex(where: { $0.index == index }) else {
                failures.append(text)
                return
            }
            steps[position].add(judged: true, problems: [text])
        }
        if scenario.checksOff[.linkStage] == nil {
            let evidence = StageRule.LinkEvidence(
                sends: sends.map { (at: $0.at, payload: $0.payload) }, receipts: receipts.map { (received: $0.received, payload: $0.payload) })
            for step in steps {
                guard let measured = step.stagesMs?[.link], let model = timing.model(conditions[step.index]) else { continue }
                let sent = step.firstSendNs.flatMap { first in
                    step.stagesMs?[.gesture].map { first + UInt64(max(0, $0 * 1e6).rounded()) }
                }
                guard let link = evidence.judged(ms: measured, sent: sent),
                      let problem = StageRule.link(ms: link, model: model, limits: timing.limits, scale: options.latencyScale)
                else { continue }
                fail(step.index, problem)
            }
        }
        if scenario.checksOff[.computerStage] == nil {
            let starts = windows.sorted { $0.key < $1.key }.map { (start: $0.value.start.nanoseconds, step: $0.key) }
            // A restart starts a new process: the first write of each kind is not judged in it either.
            let restarts = accountingEvents.filter { $0.event == .computerRestarted }.map(\.at)
            var handled: [StageRule.Handled] = []
            var kindsSeen = Set<String>()
            for receipt in receipts {
                guard let first = receipt.written?.first else { continue }
                let generation = restarts.filter { $0 <= receipt.received }.count
                let kind = "\(generation) " + StageRule.kind(of: receipt.payload)
                handled.append(StageRule.Handled(
                    received: receipt.received, firstWritten: first, step: starts.last { $0.start <= receipt.received }?.step,
                    payload: receipt.payload, first: kindsSeen.insert(kind).inserted))
            }
            for (step, text) in StageRule.computer(handled, limits: timing.limits, stated: timing.stated) { fail(step, text) }
        }
        return (steps, failures)
    }
}
