/// How `hil run` ends, as its exit status: the one place of the policy.
package enum RunExit: Int32, Sendable, Equatable {
    /// Every scenario passed (or did not apply).
    case passed = 0
    /// A scenario failed, was inconclusive or an error.
    case failed = 1
    /// The rig broke during the run (an adapter that no longer powers on): the run stopped there, results kept.
    case rigBroken = 125
    /// Interrupted (Ctrl-C, SIGTERM, SIGHUP): the results so far are kept.
    case interrupted = 130

    /// An interrupt outranks a broken rig, which outranks the verdicts.
    package init(interrupted: Bool, rigBroken: Bool, failures: Int) {
        if interrupted {
            self = .interrupted
        } else if rigBroken {
            self = .rigBroken
        } else {
            self = failures > 0 ? .failed : .passed
        }
    }
}
