/// The line a run ends with, the same in the console, the reports and `hil lab run`:
/// `40 passed, 3 failed (1 inconclusive, 1 error), 2 not applicable`. "Failed" counts every scenario that did
/// not pass, so the exit status and JUnit agree with it; the parenthesis says how many of those are no verdict
/// on the product (inconclusive: evidence lost or a rig too slow to judge; error: the rig or the device broke).
package enum RunTotals {
    package static func line(_ outcomes: [ScenarioResult.Outcome]) -> String {
        func count(_ outcome: ScenarioResult.Outcome) -> Int { outcomes.filter { $0 == outcome }.count }
        let passed = count(.passed)
        let skipped = count(.notApplicable)
        let notPassed = outcomes.filter(\.isFailure).count
        let errors = count(.error)
        let kinds = [(count(.inconclusive), "inconclusive"), (errors, errors == 1 ? "error" : "errors")].filter { $0.0 > 0 }
        let breakdown = kinds.isEmpty ? "" : " (" + kinds.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")"
        return "\(passed) passed, \(notPassed) failed" + breakdown + (skipped > 0 ? ", \(skipped) not applicable" : "")
    }
}
