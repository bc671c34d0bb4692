import CLinux
import Glibc
import Synchronization

/// An open file descriptor with one owner, in swift-system's manner (`FileDescriptor`, `closeAfter`), except that
/// this one owns its number: it is closed exactly once — by `close()`, or when the last reference goes — so no path
/// closes a number the kernel has since handed to someone else. After `close()` its `rawValue` is -1, and calls
/// through it fail with EBADF instead of reaching another file.
///
/// Reads and writes retry EINTR inside. Close it only when no other thread is reading or writing through it (to wake
/// a blocked reader, shut a socket down, or write to a wake pipe).
package final class FileDescriptor: Sendable, CustomStringConvertible {
    private let number: Mutex<Int32>

    /// Takes ownership of `rawValue`, an open descriptor nothing else will close.
    package init(owning rawValue: Int32) {
        number = Mutex(rawValue)
    }

    deinit {
        close()
    }

    /// The descriptor's number while it is open, -1 once closed: for the C calls this type does not wrap.
    package var rawValue: Int32 { number.withLock { $0 } }

    package var isOpen: Bool { rawValue >= 0 }

    package var description: String { "FileDescriptor(\(rawValue))" }

    /// Closes the descriptor the first time it is called; later calls (and the deinit) do nothing. Never retried: on
    /// Linux the descriptor is released even when `close` reports EINTR. The corresponding C function is `close`.
    package func close() {
        let open = number.withLock { number in
            defer { number = -1 }
            return number
        }
        if open >= 0 { _ = Glibc.close(open) }
    }

    /// Gives the descriptor to another owner (a `FileHandle` that closes it): returns its number, and this object no
    /// longer closes it. -1 when it was closed or given away already.
    package func release() -> Int32 {
        number.withLock { number in
            defer { number = -1 }
            return number
        }
    }

    /// Runs `body` with this descriptor and closes it afterwards, whether `body` returned or threw.
    package func closeAfter<Result, Failure: Error>(_ body: (FileDescriptor) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        defer { close() }
        return try body(self)
    }

    /// Opens `path` with `flags` (O_CLOEXEC is added), retrying on EINTR.
    /// The corresponding C function is `open`.
    package static func open(_ path: String, _ flags: Int32, permissions: UInt32 = 0o644)
        throws(Errno) -> FileDescriptor
    {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode_t(permissions))
            if fd >= 0 { return FileDescriptor(owning: fd) }
            let error = Errno.current
            if error != .interrupted { throw error }
        }
    }

    /// A pipe whose two ends are closed on exec (a spawned child gets only what is handed to it).
    /// The corresponding C function is `pipe2` (with O_CLOEXEC).
    package static func pipe() throws(Errno) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        guard hil_pipe_close_on_exec(&fds) == 0 else { throw Errno.current }
        return (FileDescriptor(owning: fds[0]), FileDescriptor(owning: fds[1]))
    }

    /// Reads up to `buffer.count` bytes, retrying on EINTR; returns how many were read, 0 at the end of the file.
    /// The corresponding C function is `read`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        while true {
            let count = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            let error = Errno.current
            if error != .interrupted { throw error }
        }
    }

    /// Writes up to `buffer.count` bytes, retrying on EINTR; returns how many were written.
    /// The corresponding C function is `write`.
    package func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        while true {
            let count = Glibc.write(rawValue, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            let error = Errno.current
            if error != .interrupted { throw error }
        }
    }

    /// Writes all of `bytes`, however many calls it takes.
    package func writeAll(_ bytes: [UInt8]) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                Result { () throws(Errno) in try write(buffer) }
            }
            offset += try written.get()
        }
    }
}
