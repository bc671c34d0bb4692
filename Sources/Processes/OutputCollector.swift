import Foundation
import Glibc
import System

/// Reads a child's standard output and standard error to their ends on a thread of its own, which polls both pipes
/// and a wake pipe, so neither pipe can fill up and stall the child. It keeps the first `limit` bytes of each stream
/// and reads the rest only to discard it.
///
/// The pipes end when every process holding their write ends has exited. A process the child left behind may hold
/// them past the child's own exit; `collected(within:)` then stops reading after a grace period instead of waiting
/// for it (Foundation's `waitUntilExit` hung on exactly that in the vm guest, see docs/developing.md).
final class OutputCollector: Sendable {
    struct Collected: Sendable {
        var output: [UInt8] = []
        var errors: [UInt8] = []
        /// A stream went past `limit`; the bytes past it were discarded.
        var exceeded = false
    }

    private let done = Completion<Collected>()
    private let wakeWriteEnd: FileDescriptor

    /// Starts reading `output` and `errors` (either may be nil; they stay open while the thread reads them).
    /// - Parameter wake: a pipe made for this collector (made before the child, so a failure leaves nothing running).
    init(output: FileHandle?, errors: FileHandle?, limit: Int, name: String,
         wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor))
    {
        wakeWriteEnd = wake.writeEnd
        let thread = Thread { [done] in
            done.complete(Self.read(output: output, errors: errors, wake: wake.readEnd, limit: limit))
            wake.readEnd.close()
        }
        thread.name = "hil: output of \(name)"
        thread.stackSize = 128 * 1024
        thread.start()
    }

    /// What was read, once both streams ended or `grace` passed (then reading stops, and the rest is not read).
    func collected(within grace: Duration) async -> Collected {
        if let collected = await done.wait(timeout: grace) { return collected }
        stop()
        return await done.wait()
    }

    /// The blocking twin of `collected(within:)`.
    func collectedBlocking(within grace: Duration) -> Collected {
        if let collected = done.waitBlocking(timeout: grace) { return collected }
        stop()
        return done.waitBlocking(timeout: nil)!
    }

    /// Wakes the reading thread, which returns what it has.
    private func stop() {
        try? wakeWriteEnd.writeAll([1])
    }

    /// The reading loop: poll the open streams and the wake pipe; read whatever is ready.
    private static func read(output: FileHandle?, errors: FileHandle?, wake: FileDescriptor, limit: Int) -> Collected {
        var collected = Collected()
        let streams = [output, errors].map { $0?.fileDescriptor ?? -1 }
        var entries = streams.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        entries.append(pollfd(fd: wake.rawValue, events: Int16(POLLIN), revents: 0))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while entries.dropLast().contains(where: { $0.fd >= 0 }) {
            let ready = poll(&entries, nfds_t(entries.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return collected
            }
            if entries[2].revents != 0 { return collected }
            for index in 0..<2 where entries[index].fd >= 0 && entries[index].revents != 0 {
                var count: Int
                repeat {
                    count = buffer.withUnsafeMutableBytes { Glibc.read(streams[index], $0.baseAddress, $0.count) }
                } while count < 0 && errno == EINTR
                if count <= 0 {
                    entries[index].fd = -1
                    continue
                }
                let room = max(0, limit - (index == 0 ? collected.output.count : collected.errors.count))
                if count > room { collected.exceeded = true }
                let kept = buffer[..<min(count, room)]
                if index == 0 { collected.output += kept } else { collected.errors += kept }
            }
        }
        return collected
    }
}
