import Foundation
import System
import Waiting

/// A process that is not our child (found in `ProcessTable`, e.g. the rig's bluetoothd): it can be signalled, and
/// its exit awaited through a pidfd (`pidfd_open`, Linux 5.3), which becomes readable when the process exits —
/// reaped or not, since its parent may be a shell that never reaps. Where pidfds are missing, the exit is noticed
/// by reading /proc every 5 ms (with `Task.sleep`, never blocking a thread).
package struct RunningProcess: Sendable {
    package let pid: Int32

    package init(pid: Int32) {
        self.pid = pid
    }

    /// Sends `number`; false with errno set when it could not be sent (no such process, not permitted).
    @discardableResult
    package func signal(_ number: Int32) -> Bool {
        kill(pid, number) == 0
    }

    /// Runs and exists (a zombie — exited, not yet reaped by its parent — does not count).
    package var isAlive: Bool { Self.alive(pid) }

    /// Suspends until the process has exited, or `timeout` passes. Returns true once it has exited.
    package func exited(within timeout: Duration?) async -> Bool {
        guard isAlive else { return true }
        guard let open = Self.pidfdOpen else { return await polled(within: timeout) }
        let number = open(pid, 0)
        guard number >= 0 else { return !isAlive }
        let descriptor = FileDescriptor(owning: number)
        let milliseconds = timeout.map { Int32(clamping: $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) } ?? -1
        return await withCheckedContinuation { continuation in
            // poll(2) blocks: a thread of its own, never one of the cooperative pool.
            let thread = Thread {
                var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
                var ready: Int32
                repeat { ready = poll(&entry, 1, milliseconds) } while ready < 0 && errno == EINTR
                descriptor.close()
                continuation.resume(returning: ready > 0 || !Self.alive(pid))
            }
            thread.stackSize = 64 * 1024
            thread.start()
        }
    }

    /// Stops the process by running `steps` (see `TeardownStep`); returns when it is gone.
    package func teardown(_ steps: [TeardownStep] = TeardownStep.terminate) async {
        await TeardownStep.perform(steps, send: { signal($0) }, waitForExit: { await exited(within: $0) })
    }

    /// Without a pidfd: whether the process is gone, read every 5 ms (`Poll`) until `timeout`.
    private func polled(within timeout: Duration?) async -> Bool {
        do {
            // Without a timeout, for as long as the process lives.
            return try await Poll.upTo(timeout, every: .milliseconds(5)) { isAlive ? nil : true } ?? false
        } catch {
            // Cancelled: the caller stops waiting, and whether the process is gone is all there is to say.
            return !isAlive
        }
    }

    package static func alive(_ pid: Int32) -> Bool { kill(pid, 0) == 0 && !isZombie(pid) }

    /// A process that exited but was not reaped yet (its parent is the rig's shell) still answers kill(pid, 0).
    package static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// glibc's `pidfd_open` (2.36 on); looked up at run time, as the Glibc module may not declare it.
    private static let pidfdOpen: (@convention(c) (Int32, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "pidfd_open") /* RTLD_DEFAULT */ else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UInt32) -> Int32).self)
    }()
}
