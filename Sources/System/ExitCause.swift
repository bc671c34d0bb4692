/// hil's exit statuses: one per cause, the same in every command, so a nightly job can tell a broken product from a
/// broken job. README.md's table and `hil --help` list them with `meaning` (ExitCauseTests holds the three together).
package enum ExitCause: Int32, CaseIterable, Sendable {
    /// Everything checked held (or, for a command that checks nothing, it did its job).
    case passed = 0
    /// The product failed a check: a scenario, an expectation, a bench or soak's rule, a regression.
    case productFailed = 1
    /// Nothing failed, and nothing could be judged: `hil replay` of scenarios whose checks all need a rig.
    case notJudged = 2
    /// The input is invalid: an option, a path, a scenario, results or rig file, a payload; nothing was run.
    case invalidInput = 64
    /// No usable rig: none can run here, a tool is missing, or the rig did not come up; nothing was run.
    case noUsableRig = 69
    /// Over `--timeout`: the run was stopped; what it judged is kept.
    case timedOut = 124
    /// The rig broke during the run (an adapter that no longer powers on, a guest that died); what it judged is kept.
    case rigBroke = 125
    /// Interrupted (Ctrl-C, SIGTERM, SIGHUP); what it judged is kept.
    case interrupted = 130

    /// The cause in a few words, as README.md's table and `hil --help` give it.
    package var meaning: String {
        switch self {
        case .passed: "passed: every check held, or the command did its job"
        case .productFailed: "the product failed a check (a scenario, an expectation, bench's, calibrate's or soak's rule, a regression)"
        case .notJudged: "nothing failed and nothing could be judged (hil replay: every check needs a rig)"
        case .invalidInput: "invalid input (an option, a path, a scenario, results or rig file, a payload): nothing was run"
        case .noUsableRig: "no usable rig (none can run here, a tool is missing, the rig did not come up): nothing was run"
        case .timedOut: "over --timeout: stopped, what was judged is kept"
        case .rigBroke: "the rig broke during the run: stopped, what was judged is kept"
        case .interrupted: "interrupted (Ctrl-C, SIGTERM): stopped, what was judged is kept"
        }
    }

    /// The table: `  0  passed: …`, one line per status.
    package static var table: String {
        allCases.map { status in
            let code = String(status.rawValue)
            return "  " + code + String(repeating: " ", count: 5 - code.count) + status.meaning
        }.joined(separator: "\n")
    }
}
