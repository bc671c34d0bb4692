import Foundation
import Synchronization
package import System
package import Waiting

/// Announces every file written, created, renamed into or removed from a folder (inotify), as `Changes`: a file another
/// process writes (a ready file, a pairing code, a receipts log) is awaited as an event, not read every few ms.
/// Changes made on this machine are seen on any file system, 9p included.
package final class FolderWatch: Sendable {
    package let changes: Changes
    /// Set by `stop` (or when the watch goes away); the thread holds this, not the watch, so the watch's deinit runs.
    private let stopped = StopFlag()

    /// Watches `folder` from now on; `changes` is signalled at each change (pass one to share it with other sources).
    /// - Throws: `SystemError` `.cannotWatch` with the errno when inotify cannot watch the folder (it does not exist;
    ///   the user's watch limit).
    package init(_ folder: String, changes: Changes = Changes()) throws(SystemError) {
        self.changes = changes
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw Self.cannotWatch(folder, "inotify_init1", errno) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_DELETE)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            let error = errno
            close(descriptor)
            throw Self.cannotWatch(folder, "inotify_add_watch", error)
        }
        let thread = Thread { [stopped, changes] in
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            // Woken by a change or every 100 ms to see whether the watch was stopped.
            while !stopped.isSet {
                guard poll(&entry, 1, 100) > 0 else { continue }
                while read(descriptor, &buffer, buffer.count) > 0 {}
                changes.signal()
            }
        }
        thread.name = "folder-watch"
        thread.stackSize = 64 * 1024
        thread.start()
    }

    /// Ends the watch (its thread ends within 100 ms and closes the inotify descriptor).
    package func stop() {
        stopped.set()
    }

    deinit { stop() }

    private final class StopFlag: Sendable {
        private let flag = Atomic<Bool>(false)
        var isSet: Bool { flag.load(ordering: .acquiring) }
        func set() { flag.store(true, ordering: .releasing) }
    }
}

extension FolderWatch {
    static func cannotWatch(_ folder: String, _ call: String, _ number: Int32) -> SystemError {
        SystemError(.cannotWatch, "cannot watch \(folder) for changes (\(call))", errno: Errno(rawValue: number),
                    hint: number == ENOSPC ? "the user's inotify watch limit is reached: raise fs.inotify.max_user_watches" : nil)
    }
}
