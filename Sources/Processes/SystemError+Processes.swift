package import System

extension SystemError.Code {
    /// The program could not be started (missing, not executable, no descriptors left); `errno` says why.
    package static let cannotStart = Self("cannotStart")
    /// A command ran past its time limit and was stopped; `details` holds what it printed until then.
    package static let timedOut = Self("timedOut")
    /// A command printed more than the limit it was run with; it ran to its end, and its output was dropped.
    package static let outputLimitExceeded = Self("outputLimitExceeded")
    /// A folder could not be watched for changes (inotify); `errno` says why.
    package static let cannotWatch = Self("cannotWatch")
}
