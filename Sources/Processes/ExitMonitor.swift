import Foundation

/// Watches one child: a dedicated thread blocks in `waitpid` until the child exits, records how, and wakes every
/// waiter through a `Completion`. Nothing polls.
final class ExitMonitor: Sendable {
    private let ended = Completion<ChildProcess.Termination>()

    init(pid: pid_t, name: String) {
        let thread = Thread { [ended] in
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(pid, &status, 0)
            } while result < 0 && errno == EINTR
            ended.complete(result == pid ? .init(waitStatus: status) : .exited(-1))
        }
        thread.name = "hil: wait for \(name) (\(pid))"
        thread.stackSize = 64 * 1024
        thread.start()
    }

    var termination: ChildProcess.Termination? { ended.value }

    /// Suspends until the child exits, or `timeout` passes (then nil).
    func wait(timeout: Duration? = nil) async -> ChildProcess.Termination? {
        await ended.wait(timeout: timeout)
    }

    /// Runs `action` once the child has exited (at once when it has), on the thread that reaped it.
    func whenExited(_ action: @escaping @Sendable (ChildProcess.Termination) -> Void) {
        ended.whenDone(action)
    }

    func wait() async -> ChildProcess.Termination {
        await ended.wait()
    }

    /// Blocks the calling thread until the child exits, or `timeout` passes (then nil).
    func waitBlocking(timeout: Duration?) -> ChildProcess.Termination? {
        ended.waitBlocking(timeout: timeout)
    }
}
