import CLinux
import Glibc

/// What `ChildProcess` asks of posix_spawn that Swift's Glibc module does not declare (`CLinux`); a file of its own,
/// so the C module's copies of the system types stay out of the files that make public API of them.
enum SpawnActions {
    /// The child closes every descriptor from `first` on (posix_spawn_file_actions_addclosefrom_np, glibc 2.34+).
    static func closeFrom(_ first: Int32, _ actions: inout posix_spawn_file_actions_t) {
        _ = hil_spawn_close_from(&actions, first)
    }
}
