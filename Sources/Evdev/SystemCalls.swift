import Glibc
import System

// Thin wrappers over the system calls this module makes, in swift-system's manner: `system_foo` for C `foo`,
// EINTR retried inside, failures thrown as `Errno`. The public types add the context (which device, what next).

/// Opens `path` with `flags`, retrying on EINTR, and returns the file descriptor.
/// The corresponding C function is `open`.
func system_open(_ path: String, _ flags: Int32) throws(Errno) -> Int32 {
    while true {
        let fd = open(path, flags)
        if fd >= 0 { return fd }
        let error = Errno.current
        if error != .interrupted { throw error }
    }
}

/// Closes `fd`. Never retried: on Linux the descriptor is released even when `close` reports EINTR.
/// The corresponding C function is `close`.
func system_close(_ fd: Int32) {
    _ = close(fd)
}

/// Waits up to `milliseconds` (-1: forever) for `events` on `fd` and returns the events that occurred: empty
/// on timeout, and also when a signal interrupted the wait (callers recompute their remaining time and call
/// again). The corresponding C function is `poll`.
func system_poll(_ fd: Int32, events: Int16, milliseconds: Int32) throws(Errno) -> Int16 {
    var entry = pollfd(fd: fd, events: events, revents: 0)
    let count = poll(&entry, 1, milliseconds)
    if count >= 0 { return count == 0 ? 0 : entry.revents }
    let error = Errno.current
    if error == .interrupted { return 0 }
    throw error
}

/// Issues the ioctl `request` on `fd` with `argument`, retrying on EINTR, and returns its non-negative result.
/// The corresponding C function is `ioctl`.
func system_ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) throws(Errno) -> Int32 {
    while true {
        let result = ioctl(fd, request, argument)
        if result >= 0 { return result }
        let error = Errno.current
        if error != .interrupted { throw error }
    }
}

/// The names in directory `path` other than `.` and `..`; empty when it cannot be read (it does not exist).
/// The corresponding C functions are `opendir`, `readdir` and `closedir`.
func system_listDirectory(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// The contents of a small text file such as a sysfs attribute (up to 4 KiB), or nil when it cannot be read.
func system_readSmallFile(_ path: String) -> String? {
    guard let fd = try? system_open(path, O_RDONLY | O_CLOEXEC) else { return nil }
    defer { system_close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    var length = 0
    while length < buffer.count {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + length, $0.count - length) }
        if count > 0 {
            length += count
        } else if count == 0 || Glibc.errno != EINTR {
            break
        }
    }
    return String(decoding: buffer[..<length], as: UTF8.self)
}

/// True when `path` exists (any file type). The corresponding C function is `access`.
func system_exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
}
