import Foundation

/// One step of stopping a process: teardown is data, a list of these run in order until the process is gone.
///
/// `[.signal(SIGINT), .wait(.seconds(2)), .signal(SIGTERM), .wait(.seconds(2)), .kill]` asks politely twice,
/// then kills. A sequence always ends in `.kill` (added when missing), so a teardown never leaves the process
/// running: a `.wait` that sees the process exit ends the sequence early.
package enum TeardownStep: Sendable, Equatable, CustomStringConvertible {
    /// Send this signal (to the process, or to its group when it leads one).
    case signal(Int32)
    /// Wait up to this long for the process to exit; the teardown ends when it does.
    case wait(Duration)
    /// SIGKILL, then wait for the exit however long it takes.
    case kill

    /// SIGTERM, 3 s, SIGKILL: for daemons that handle SIGTERM.
    package static let terminate: [TeardownStep] = [.signal(SIGTERM), .wait(.seconds(3)), .kill]
    /// SIGINT, 2 s, SIGTERM, 2 s, SIGKILL: for programs that clean up on Ctrl-C.
    package static let interrupt: [TeardownStep] = [.signal(SIGINT), .wait(.seconds(2)), .signal(SIGTERM), .wait(.seconds(2)), .kill]

    package var description: String {
        switch self {
        case .signal(let number): "signal(\(number))"
        case .wait(let duration): "wait(\(duration))"
        case .kill: "kill"
        }
    }

    /// `steps` with the closing `.kill` the rule requires.
    static func complete(_ steps: [TeardownStep]) -> [TeardownStep] {
        steps.last == .kill ? steps : steps + [.kill]
    }

    /// Runs `steps` against a process seen through `send` and `waitForExit` (which returns true once it exited).
    static func perform(_ steps: [TeardownStep], send: (Int32) -> Void,
                        waitForExit: (Duration?) async -> Bool) async
    {
        for step in complete(steps) {
            switch step {
            case .signal(let number): send(number)
            case .wait(let duration): if await waitForExit(duration) { return }
            case .kill:
                send(SIGKILL)
                _ = await waitForExit(nil)
            }
        }
    }

    /// The blocking twin of `perform`, for synchronous callers (a `deinit`, a non-async rig runner).
    static func performBlocking(_ steps: [TeardownStep], send: (Int32) -> Void, waitForExit: (Duration?) -> Bool) {
        for step in complete(steps) {
            switch step {
            case .signal(let number): send(number)
            case .wait(let duration): if waitForExit(duration) { return }
            case .kill:
                send(SIGKILL)
                _ = waitForExit(nil)
            }
        }
    }
}
