import Foundation
package import Processes
import Rig
import Synchronization

/// One command of a lab run (labgrid-client, ssh, scp): its exit status and everything it printed.
package struct LabProcess: Sendable {
    package var status: Int32
    package var output: String
    /// True when it was stopped at its time limit.
    package var timedOut: Bool

    /// The last `count` lines of the output, for an error message.
    package func tail(_ count: Int = 6) -> String {
        output.split(separator: "\n").suffix(count).joined(separator: "\n")
    }

    /// Runs `executable` to its end (or `timeout`), stdout and stderr together; the output is read on a thread of
    /// its own so a talkative command cannot fill the pipe and stall.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           timeout: Duration? = nil) async throws(LabError) -> LabProcess
    {
        let child: ChildProcess
        do {
            child = try ChildProcess(executable, arguments, environment: environment, output: .joined, ownProcessGroup: true)
        } catch {
            throw LabError("cannot start \(executable): \(error)")
        }
        let drained = Drain(child.output)
        let ended: ChildProcess.Termination?
        if let timeout {
            ended = await child.exitStatus(timeout: timeout)
        } else {
            ended = await child.exitStatus()
        }
        guard let ended else {
            _ = await child.teardown()
            return LabProcess(status: 124, output: await drained.text(), timedOut: true)
        }
        return LabProcess(status: ended.status, output: await drained.text(), timedOut: false)
    }

    /// Runs `executable` with its output appended to `file`, until it ends: a long command (a shard's hil run)
    /// whose output is followed from the file.
    package static func start(_ executable: String, _ arguments: [String], log file: String) throws(LabError) -> ChildProcess {
        do {
            return try ChildProcess(executable, arguments, output: .appending(file), ownProcessGroup: true)
        } catch {
            throw LabError("cannot start \(executable): \(error)")
        }
    }
}

/// Reads a pipe to its end on a thread.
private final class Drain: Sendable {
    private let result = Mutex<(data: Data, done: Bool, waiters: [CheckedContinuation<Data, Never>])>((Data(), false, []))

    init(_ handle: FileHandle?) {
        guard let handle else {
            result.withLock { $0.done = true }
            return
        }
        Thread.detachNewThread { [self] in
            let data = handle.readDataToEndOfFile()
            let waiters = result.withLock { state in
                state.data = data
                state.done = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: data) }
        }
    }

    func text() async -> String {
        let data = await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
            let ready: Data? = result.withLock { state in
                if state.done { return state.data }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return String(decoding: data, as: UTF8.self)
    }
}
