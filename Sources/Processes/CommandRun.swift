import Foundation
import System

/// One command started by `ChildProcess.run`: the child, the collector reading its output, and the words for the
/// messages about it. The async and the blocking `run` differ only in how they wait for it.
struct CommandRun {
    let child: ChildProcess
    let collector: OutputCollector
    /// `tc -n phone qdisc del dev hilp0 root`.
    let command: String
    let limit: Int

    /// How long the output may go on after the child exited (or was stopped): what it wrote is in the pipe already,
    /// so this only waits for processes it left behind that still hold the pipe.
    static let grace: Duration = .seconds(2)

    init(_ executable: String, _ arguments: [String], environment: [String: String]?, workingDirectory: String?,
         input: [UInt8]?, errors: ChildProcess.Errors, limit: Int, ownProcessGroup: Bool) throws(SystemError)
    {
        command = ([(executable as NSString).lastPathComponent] + arguments).joined(separator: " ")
        self.limit = limit
        // A path goes to posix_spawn as it is, which says what is wrong with it (missing, not executable).
        guard let path = executable.contains("/") ? executable : ChildProcess.resolve(executable) else {
            throw SystemError(.cannotStart, "cannot start \(executable)", errno: .noSuchFileOrDirectory,
                              hint: "no \(executable) on PATH: install it, or check PATH")
        }
        let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let stdin: (readEnd: FileDescriptor, writeEnd: FileDescriptor)?
        do throws(Errno) {
            wake = try FileDescriptor.pipe()
            stdin = try input.map { _ throws(Errno) in try FileDescriptor.pipe() }
        } catch {
            throw SystemError(.cannotStart, "cannot start \(executable): pipe", errno: error)
        }
        let mode: ChildProcess.Output =
            switch errors {
            case .collected: .separate
            case .joined: .joined
            case .inherited: .standardOutput
            case .discarded: .standardOutputOnly
            }
        child = try ChildProcess(path, arguments, environment: environment, workingDirectory: workingDirectory,
                                 input: stdin?.readEnd, output: mode, ownProcessGroup: ownProcessGroup)
        stdin?.readEnd.close()
        if let stdin, let input { Self.write(input, to: stdin.writeEnd) }
        collector = OutputCollector(output: child.output, errors: child.errorOutput, limit: limit,
                                    name: command, wake: wake)
    }

    /// The result of a child that exited by itself.
    func result(_ ended: ChildProcess.Termination, _ collected: OutputCollector.Collected)
        throws(SystemError) -> CollectedOutput
    {
        let result = output(ended, collected)
        guard !collected.exceeded else {
            throw SystemError(.outputLimitExceeded,
                              "`\(command)` printed more than \(limit) bytes on a stream (it \(ended))",
                              details: result.text,
                              hint: "narrow what it prints, or run it with a higher output limit")
        }
        return result
    }

    /// The error for a child stopped at its time limit, with what it printed until then.
    func timedOut(after timeout: Duration, _ stopped: ChildProcess.Termination, _ collected: OutputCollector.Collected)
        -> SystemError
    {
        SystemError(.timedOut, "`\(command)` did not finish within \(timeout); it was stopped (\(stopped))",
                    details: output(stopped, collected).text,
                    hint: "it may wait for something that is not there (a device, a daemon, the network): "
                        + "run it by hand to see")
    }

    private func output(_ ended: ChildProcess.Termination, _ collected: OutputCollector.Collected) -> CollectedOutput {
        CollectedOutput(command: command, termination: ended,
                        standardOutput: String(decoding: collected.output, as: UTF8.self),
                        standardError: String(decoding: collected.errors, as: UTF8.self))
    }

    /// Writes `input` into the child's standard input on a thread of its own, then closes it (the child sees its
    /// end). SIGPIPE is blocked on that thread: a child that exits without reading makes the write fail, not us die.
    private static func write(_ input: [UInt8], to pipe: FileDescriptor) {
        let thread = Thread {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            try? pipe.writeAll(input)
            pipe.close()
        }
        thread.stackSize = 64 * 1024
        thread.start()
    }
}
