package import System

extension ChildProcess {
    /// Where the standard error of a command run by `run` goes.
    package enum Errors: Sendable {
        /// Collected apart, into `CollectedOutput.standardError`.
        case collected
        /// Into the standard output, in the order it was written (`2>&1`).
        case joined
        /// Ours: the command's progress messages reach the user.
        case inherited
        /// /dev/null.
        case discarded
    }

    /// Runs `executable` to its end and collects what it printed: the one way to run a command for its output
    /// (swift-subprocess's `run(…, output: .string(limit:))`).
    ///
    /// Its standard input is /dev/null unless `input` is given. Both streams are read as they come, so a talkative
    /// command cannot fill a pipe and stall. At `timeout` the child is stopped with `teardown` (its whole process
    /// group when `ownProcessGroup`), and the error carries what it printed until then.
    ///
    /// - Parameters:
    ///   - executable: a path, or a program name looked up on `PATH`.
    ///   - environment: the child's environment; nil passes ours on.
    ///   - workingDirectory: where it starts; nil: our current directory.
    ///   - input: bytes for its standard input, which then ends.
    ///   - errors: where its standard error goes.
    ///   - limit: how many bytes of each stream are kept.
    ///   - ownProcessGroup: start it in a process group of its own (terminal signals do not reach it; the timeout's
    ///     teardown reaches everything it started in that group). False keeps it in ours, so a Ctrl-C stops both.
    ///   - teardown: how it is stopped at `timeout`.
    ///   - timeout: how long it may run; nil: however long it takes.
    /// - Returns: its output and how it ended; a non-zero exit is a result, not an error.
    /// - Throws: `SystemError` `.cannotStart` (with the errno), `.timedOut` (naming the command and the timeout),
    ///   `.outputLimitExceeded`.
    package static func run(
        _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil,
        input: [UInt8]? = nil, errors: Errors = .collected, output limit: Int = CollectedOutput.defaultLimit,
        ownProcessGroup: Bool = true, teardown: [TeardownStep] = TeardownStep.terminate, timeout: Duration?
    ) async throws(SystemError) -> CollectedOutput {
        let run = try CommandRun(executable, arguments, environment: environment, workingDirectory: workingDirectory,
                                 input: input, errors: errors, limit: limit, ownProcessGroup: ownProcessGroup)
        let ended: Termination? =
            if let timeout { await run.child.exitStatus(timeout: timeout) } else { await run.child.exitStatus() }
        guard let ended else {
            // Only the timeout leaves it running.
            let stopped = await run.child.teardown(teardown)
            let collected = await run.collector.collected(within: CommandRun.grace)
            throw run.timedOut(after: timeout ?? .zero, stopped, collected)
        }
        return try run.result(ended, await run.collector.collected(within: CommandRun.grace))
    }

    /// `run` for synchronous callers: blocks the calling thread (async code awaits `run` instead).
    package static func runBlocking(
        _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil,
        input: [UInt8]? = nil, errors: Errors = .collected, output limit: Int = CollectedOutput.defaultLimit,
        ownProcessGroup: Bool = true, teardown: [TeardownStep] = TeardownStep.terminate, timeout: Duration?
    ) throws(SystemError) -> CollectedOutput {
        let run = try CommandRun(executable, arguments, environment: environment, workingDirectory: workingDirectory,
                                 input: input, errors: errors, limit: limit, ownProcessGroup: ownProcessGroup)
        guard let ended = run.child.wait(timeout: timeout) else {
            let stopped = run.child.teardownBlocking(teardown)
            let collected = run.collector.collectedBlocking(within: CommandRun.grace)
            throw run.timedOut(after: timeout ?? .zero, stopped, collected)
        }
        return try run.result(ended, run.collector.collectedBlocking(within: CommandRun.grace))
    }
}
