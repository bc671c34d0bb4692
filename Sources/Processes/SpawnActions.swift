import CLinux
import Glibc
import System

/// One `posix_spawn`: what the child gets as descriptors 0, 1 and 2, where it starts, and a clean signal state. A
/// file of its own, so the C module's copies of the system types stay out of the files that make API of them.
struct SpawnActions {
    /// Where one of the child's standard descriptors comes from.
    enum Source {
        /// Ours, inherited.
        case inherit
        /// This open descriptor of ours (a pipe's end), duplicated onto it.
        case descriptor(Int32)
        /// A file opened with these flags (`/dev/null`, a log).
        case file(String, flags: Int32)
        /// The same as the child's descriptor with this number (stderr joined to stdout).
        case sameAs(Int32)
    }

    var input: Source = .file("/dev/null", flags: O_RDONLY)
    var output: Source = .inherit
    var error: Source = .inherit
    var workingDirectory: String?
    /// Start a new process group (its id is the child's pid), so terminal signals do not reach the child.
    var ownProcessGroup = false

    /// Starts `executable` with `arguments`, and `environment` (nil: ours); returns its pid.
    /// - Throws: the `Errno` posix_spawn returned (ENOENT for a missing program, EACCES for one not executable).
    /// The corresponding C function is `posix_spawn`.
    func spawn(_ executable: String, _ arguments: [String], environment: [String: String]?) throws(Errno) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (number, source) in [(Int32(0), input), (1, output), (2, error)] {
            Self.add(source, as: number, to: &actions)
        }
        // The child keeps 0, 1 and 2 only. Without this it inherits every descriptor another thread has open
        // without O_CLOEXEC at that moment: a pipe whose reader then waits for EOF until this child exits (a test
        // that spawned `sleep 3600` held a concurrent `hil` run's output pipe open, and the reader hung).
        _ = hil_spawn_close_from(&actions, 3)
        if let workingDirectory { _ = hil_spawn_change_directory(&actions, workingDirectory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        Self.resetSignals(&attributes, ownProcessGroup: ownProcessGroup)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { $0.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var child: pid_t = 0
        let status = envp.map { envp in posix_spawn(&child, executable, &actions, &attributes, argv, envp) }
            ?? posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard status == 0 else { throw Errno(status) }
        return child
    }

    private static func add(_ source: Source, as number: Int32, to actions: inout posix_spawn_file_actions_t) {
        switch source {
        case .inherit: break
        case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, number)
        case .file(let path, let flags): posix_spawn_file_actions_addopen(&actions, number, path, flags, 0o644)
        case .sameAs(let other): posix_spawn_file_actions_adddup2(&actions, other, number)
        }
    }

    /// An empty signal mask and default dispositions: from a libdispatch or Swift-concurrency thread SIGTERM and
    /// SIGINT arrive blocked, and a child would inherit that.
    private static func resetSignals(_ attributes: inout posix_spawnattr_t, ownProcessGroup: Bool) {
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
    }
}
