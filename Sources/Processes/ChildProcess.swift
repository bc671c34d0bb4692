package import Foundation
package import System

/// A child process started with `posix_spawn`, with an empty signal mask and default signal dispositions.
///
/// Foundation's `Process` spawns from whatever thread calls it, and the child inherits that thread's signal
/// mask: from a libdispatch or Swift-concurrency thread SIGTERM and SIGINT arrive blocked, so QEMU would
/// ignore `terminate()` and only die to SIGKILL. This type resets both, optionally puts the child in its
/// own process group (so a terminal's Ctrl-C reaches only us, and we decide how to stop the child), and
/// captures its stdout and stderr as asked.
///
/// A dedicated monitor thread blocks in `waitpid` from the spawn on, records how the child ended and resumes
/// whoever waits: async callers through continuations (`exitStatus()`), synchronous ones through a semaphore
/// (`wait(timeout:)`). Nothing polls. Stopping it is data: `teardown([.signal(SIGINT), .wait(.seconds(2)), .kill])`.
/// Nothing else may reap the child (no `waitpid` on its pid, SIGCHLD not ignored).
///
/// To run a command to its end and collect what it printed, use `ChildProcess.run`.
package final class ChildProcess: Sendable {
    package enum Output: Sendable {
        /// stdout and stderr are ours.
        case inherit
        /// stdout goes to `output`; stderr is ours (progress messages reach the user).
        case standardOutput
        /// stdout goes to `output`; stderr goes to /dev/null.
        case standardOutputOnly
        /// stdout and stderr both go to `output`.
        case joined
        /// stdout goes to `output`, stderr to `errorOutput`.
        case separate
        /// stdout and stderr both go to this file (created or truncated).
        case file(String)
        /// stdout and stderr both go to the end of this file (created when missing).
        case appending(String)
    }

    package let pid: pid_t
    private let ownsGroup: Bool
    private let exit: ExitMonitor
    /// The captured output (stdout, or both streams with `.joined`); nil when nothing is captured. It owns its
    /// descriptor, closed when the last reference to it goes.
    package let output: FileHandle?
    /// The captured stderr with `.separate`; nil otherwise.
    package let errorOutput: FileHandle?

    /// - Parameters:
    ///   - environment: the child's environment; nil passes ours on.
    ///   - workingDirectory: where the child starts; nil: our current directory.
    ///   - input: the child's standard input (a pipe's read end); nil: /dev/null.
    ///   - ownProcessGroup: start a new process group, so terminal signals do not reach the child, and `signal`
    ///     and `teardown` reach whatever it started in that group.
    /// - Throws: `SystemError` `.cannotStart` with the errno when the program cannot be started.
    package init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                 workingDirectory: String? = nil, input: FileDescriptor? = nil, output mode: Output,
                 ownProcessGroup: Bool) throws(SystemError)
    {
        var spawn = SpawnActions(workingDirectory: workingDirectory, ownProcessGroup: ownProcessGroup)
        if let input { spawn.input = .descriptor(input.rawValue) }
        let outputPipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)?
        let errorPipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)?
        do throws(Errno) {
            outputPipe = try Self.capturesOutput(mode) ? FileDescriptor.pipe() : nil
            errorPipe = try Self.capturesErrors(mode) ? FileDescriptor.pipe() : nil
        } catch {
            throw SystemError(.cannotStart, "cannot start \(executable): pipe", errno: error)
        }
        switch mode {
        case .inherit: break
        case .standardOutput: spawn.output = .descriptor(outputPipe!.writeEnd.rawValue)
        case .standardOutputOnly:
            spawn.output = .descriptor(outputPipe!.writeEnd.rawValue)
            spawn.error = .file("/dev/null", flags: O_WRONLY)
        case .joined:
            spawn.output = .descriptor(outputPipe!.writeEnd.rawValue)
            spawn.error = .sameAs(1)
        case .separate:
            spawn.output = .descriptor(outputPipe!.writeEnd.rawValue)
            spawn.error = .descriptor(errorPipe!.writeEnd.rawValue)
        case .file(let path):
            spawn.output = .file(path, flags: O_WRONLY | O_CREAT | O_TRUNC)
            spawn.error = .sameAs(1)
        case .appending(let path):
            spawn.output = .file(path, flags: O_WRONLY | O_CREAT | O_APPEND)
            spawn.error = .sameAs(1)
        }
        let child: pid_t
        do throws(Errno) {
            child = try Self.spawnRetryingBusyText(spawn, executable, arguments, environment: environment)
        } catch {
            throw SystemError(.cannotStart, "cannot start \(executable)", errno: error,
                              hint: "check that \(executable) is installed and executable")
        }
        // Only the child writes into the pipes now: their ends close when it (and whatever it started) has exited.
        outputPipe?.writeEnd.close()
        errorPipe?.writeEnd.close()
        pid = child
        ownsGroup = ownProcessGroup
        output = outputPipe.map { FileHandle(fileDescriptor: $0.readEnd.release(), closeOnDealloc: true) }
        errorOutput = errorPipe.map { FileHandle(fileDescriptor: $0.readEnd.release(), closeOnDealloc: true) }
        exit = ExitMonitor(pid: child, name: (executable as NSString).lastPathComponent)
    }

    /// Spawns, trying again for up to about 100 ms while the kernel says ETXTBSY. A program that was just written (a
    /// test's stand-in script, a freshly built binary) can still be open for writing in a child that another thread
    /// forked but has not yet exec'd (its copy of the descriptor goes at the exec); the program is fine a moment later.
    private static func spawnRetryingBusyText(_ spawn: SpawnActions, _ executable: String, _ arguments: [String],
                                              environment: [String: String]?) throws(Errno) -> pid_t
    {
        var attempt = 0
        while true {
            do throws(Errno) {
                return try spawn.spawn(executable, arguments, environment: environment)
            } catch where error.rawValue == ETXTBSY && attempt < 20 {
                attempt += 1
                usleep(5_000)
            }
        }
    }

    private static func capturesOutput(_ mode: Output) -> Bool {
        switch mode {
        case .standardOutput, .standardOutputOnly, .joined, .separate: true
        case .inherit, .file, .appending: false
        }
    }

    private static func capturesErrors(_ mode: Output) -> Bool {
        if case .separate = mode { return true }
        return false
    }

    /// The exit status (128 + N for a death by signal N) once the child has exited; nil while it runs.
    package func poll() -> Int32? {
        exit.termination?.status
    }

    /// How the child ended; nil while it runs.
    package var termination: Termination? { exit.termination }

    /// Blocks the calling thread until the child exits; returns its status as `poll()` does.
    /// For synchronous code only: async code awaits `exitStatus()`.
    package func wait() -> Int32 {
        wait(timeout: nil)!.status
    }

    /// Blocks the calling thread until the child exits or `timeout` passes (nil: no limit).
    /// - Returns: how it ended, or nil when it still runs after `timeout`.
    package func wait(timeout: Duration?) -> Termination? {
        exit.waitBlocking(timeout: timeout)
    }

    /// Suspends until the child exits (the monitor thread resumes the continuation); never blocks a thread of
    /// the cooperative pool.
    package func exitStatus() async -> Termination {
        await exit.wait()
    }

    /// Runs `action` once the child has exited (at once when it has), on the thread that reaped it: for a wait that
    /// wakes on the exit among other events (`Changes.signal`), with no task of its own waiting for it.
    package func whenExited(_ action: @escaping @Sendable (Termination) -> Void) {
        exit.whenExited(action)
    }

    /// Suspends until the child exits or `timeout` passes.
    /// - Returns: how it ended, or nil when it still runs after `timeout`.
    package func exitStatus(timeout: Duration) async -> Termination? {
        await exit.wait(timeout: timeout)
    }

    /// Sends `number` to the child, or to its whole process group when it was started with `ownProcessGroup`
    /// (so helpers it started go too). Does nothing once the child was reaped (its pid may be reused).
    package func signal(_ number: Int32) {
        guard exit.termination == nil else { return }
        kill(ownsGroup ? -pid : pid, number)
    }

    /// Stops the child by running `steps` (see `TeardownStep`); returns how it ended. A child that already
    /// exited is not signalled.
    package func teardown(_ steps: [TeardownStep] = TeardownStep.terminate) async -> Termination {
        await TeardownStep.perform(steps, send: signal) { limit in
            if let limit { return await exitStatus(timeout: limit) != nil }
            _ = await exitStatus()
            return true
        }
        return await exitStatus()
    }

    /// `teardown` for synchronous callers: blocks the calling thread.
    @discardableResult
    package func teardownBlocking(_ steps: [TeardownStep] = TeardownStep.terminate) -> Termination {
        TeardownStep.performBlocking(steps, send: signal) { limit in wait(timeout: limit) != nil }
        return wait(timeout: nil)!
    }
}

extension ChildProcess {
    /// The full path of `program`: itself when it has a slash, else the first executable of that name on `PATH`.
    package static func resolve(_ program: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        if program.contains("/") {
            return FileManager.default.isExecutableFile(atPath: program) ? program : nil
        }
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
