public import Foundation

/// A child process started with `posix_spawn`, with an empty signal mask and default signal dispositions.
///
/// Foundation's `Process` spawns from whatever thread calls it, and the child inherits that thread's signal
/// mask: from a libdispatch or Swift-concurrency thread SIGTERM and SIGINT arrive blocked, so QEMU would
/// ignore `terminate()` and only die to SIGKILL. This type resets both, optionally puts the child in its
/// own process group (so a terminal's Ctrl-C reaches only us, and we decide how to stop the child), and
/// joins its stdout and stderr into one pipe.
public final class ChildProcess: Sendable {
    public enum Output: Sendable {
        /// stdout and stderr are ours.
        case inherit
        /// stdout goes to `output`; stderr is ours (progress messages reach the user).
        case standardOutput
        /// stdout and stderr both go to `output`.
        case joined
        /// stdout and stderr both go to this file (created or truncated).
        case file(String)
    }

    public let pid: pid_t
    /// The read end of the captured output; nil with `.inherit`.
    public let output: FileHandle?

    /// - Parameters:
    ///   - environment: the child's environment; nil passes ours on.
    ///   - ownProcessGroup: start a new process group, so terminal signals do not reach the child.
    /// - Throws: `RigError` with the errno text when the program cannot be started.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, output mode: Output,
                ownProcessGroup: Bool) throws(RigError)
    {
        let captureOutput: Bool
        switch mode {
        case .standardOutput, .joined: captureOutput = true
        case .inherit, .file: captureOutput = false
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
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else if case .file(let path) = mode {
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }

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
        output = captureOutput ? FileHandle(fileDescriptor: fds[0], closeOnDealloc: true) : nil
    }

    /// The exit status (128 + N for a death by signal N) once the child has exited; nil while it runs.
    public func poll() -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return nil }
        return Self.decode(status)
    }

    /// Waits for the child to exit; returns its status as `poll()` does.
    public func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return Self.decode(status)
    }

    public func signal(_ number: Int32) {
        kill(pid, number)
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    private static func failure(_ call: String, _ executable: String) -> RigError {
        RigError(.missingTool, "cannot start \(executable): \(call): \(String(cString: strerror(errno)))")
    }
}

extension ChildProcess {
    /// The full path of `program`: itself when it has a slash, else the first executable of that name on `PATH`.
    public static func resolve(_ program: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
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
