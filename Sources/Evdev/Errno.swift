import Glibc

/// An `errno` value: from a failed system call, or from a libevdev function, which returns `-errno`.
///
/// The module's thin C wrappers (`system_open`, `system_poll`, …) throw it; the public API turns it into an
/// `EvdevError` that names the device and the next step.
struct Errno: Error, Hashable, CustomStringConvertible {
    var rawValue: Int32

    init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno`, read right after a failed call.
    static var current: Errno { Errno(rawValue: Glibc.errno) }

    /// The error in a libevdev return value (`-errno` on failure), or nil for success (`rc >= 0`).
    init?(libevdevResult rc: Int32) {
        guard rc < 0 else { return nil }
        rawValue = -rc
    }

    /// The C library's text for it: `Permission denied`.
    var description: String { String(cString: strerror(rawValue)) }

    static let interrupted = Errno(rawValue: EINTR)
    static let wouldBlock = Errno(rawValue: EAGAIN)
}
