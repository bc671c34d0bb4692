package import System

/// How `hil run` ends, as its exit status (`ExitCause`, the table every command shares).
package enum RunExit: Sendable, Equatable, CaseIterable {
    /// Every scenario passed (or did not apply).
    case passed
    /// A scenario failed, was inconclusive or an error.
    case failed
    /// The rig broke during the run (an adapter that no longer powers on): the run stopped there, results kept.
    case rigBroken
    /// Interrupted (Ctrl-C, SIGTERM, SIGHUP): the results so far are kept.
    case interrupted

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

    package var status: ExitCause {
        switch self {
        case .passed: .passed
        case .failed: .productFailed
        case .rigBroken: .rigBroke
        case .interrupted: .interrupted
        }
    }
}
