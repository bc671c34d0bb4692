package import Foundation

/// A child process started with `posix_spawn`, with an empty signal mask and default signal dispositions.
///
/// Foundation's `Process` spawns from whatever thread calls it, and the child inherits that thread's signal
/// mask: from a libdispatch or Swift-concurrency thread SIGTERM and SIGINT arrive blocked, so QEMU would
/// ignore `terminate()` and only die to SIGKILL. This type resets both, optionally puts the child in its
/// own process group (so a terminal's Ctrl-C reaches only us, and we decide how to stop the child), and
/// joins its stdout and stderr into one pipe.
///
/// A dedicated monitor thread blocks in `waitpid` from the spawn on, records how the child ended and resumes
/// whoever waits: async callers through continuations (`exitStatus()`), synchronous ones through a semaphore
/// (`wait(timeout:)`). Nothing polls. Stopping it is data: `teardown([.signal(SIGINT), .wait(.seconds(2)), .kill])`.
/// Nothing else may reap the child (no `waitpid` on its pid, SIGCHLD not ignored).
package final class ChildProcess: Sendable {
    /// How a child ended.
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It called exit with this code (-1: its status could not be collected, someone else reaped it).
        case exited(Int32)
        /// A signal killed it.
        case signaled(Int32)

        /// The shell's convention: the exit code, or 128 + N for a death by signal N.
        package var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signaled(let number): 128 + number
            }
        }

        package var description: String {
            switch self {
            case .exited(let code): "exited with status \(code)"
            case .signaled(let number): "killed by signal \(number)"
            }
        }

        /// Decodes a `waitpid` status.
        init(waitStatus status: Int32) {
            let signal = status & 0x7F
            self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
        }
    }

    package enum Output: Sendable {
        /// stdout and stderr are ours.
        case inherit
        /// stdout goes to `output`; stderr is ours (progress messages reach the user).
        case standardOutput
        /// stdout and stderr both go to `output`.
        case joined
        /// stdout and stderr both go to this file (created or truncated).
        case file(String)
        /// stdout and stderr both go to the end of this file (created when missing).
        case appending(String)
    }

    package let pid: pid_t
    private let ownsGroup: Bool
    private let exit: ExitMonitor
    /// The read end of the captured output; nil with `.inherit`.
    package let output: FileHandle?

    /// - Parameters:
    ///   - environment: the child's environment; nil passes ours on.
    ///   - ownProcessGroup: start a new process group, so terminal signals do not reach the child.
    /// - Throws: `RigError` with the errno text when the program cannot be started.
    package init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, output mode: Output,
                ownProcessGroup: Bool) throws(RigError)
    {
        let captureOutput: Bool
        switch mode {
        case .standardOutput, .joined: captureOutput = true
        case .inherit, .file, .appending: captureOutput = false
        }
        var fds: [Int32] = [-1, -1]
        if captureOutput {
            guard pipe(&fds) == 0 else { throw Self.failure("pipe", executable) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            if case .joined = mode { posix_spawn_file_actions_adddup2(&actions, fds[1], 2) }
        } else if case .file(let path) = mode {
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else if case .appending(let path) = mode {
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // The child keeps 0, 1 and 2 only. Without this it inherits every descriptor another thread has open
        // without O_CLOEXEC at that moment: a pipe whose reader then waits for EOF until this child exits (a test
        // that spawned `sleep 3600` held a concurrent `hil` run's output pipe open, and the reader hung).
        SpawnActions.closeFrom(3, &actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if ownProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { $0.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var child: pid_t = 0
        let status = envp.map { envp in posix_spawn(&child, executable, &actions, &attributes, argv, envp) }
            ?? posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        if captureOutput { close(fds[1]) }
        guard status == 0 else {
            if captureOutput { close(fds[0]) }
            throw RigError(.missingTool, "cannot start \(executable): \(String(cString: strerror(status)))",
                           hint: "run `bash Rigs/setup.sh`")
        }
        pid = child
        ownsGroup = ownProcessGroup
        output = captureOutput ? FileHandle(fileDescriptor: fds[0], closeOnDealloc: true) : nil
        exit = ExitMonitor(pid: child, name: (executable as NSString).lastPathComponent)
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


    private static func failure(_ call: String, _ executable: String) -> RigError {
        RigError(.missingTool, "cannot start \(executable): \(call): \(String(cString: strerror(errno)))")
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
