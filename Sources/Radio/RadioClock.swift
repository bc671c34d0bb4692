import Glibc
import System

/// A point in time on the monotonic clock, in nanoseconds: what the radio model schedules by.
package struct RadioInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    package var nanoseconds: Int64

    package init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    package static func < (a: RadioInstant, b: RadioInstant) -> Bool { a.nanoseconds < b.nanoseconds }

    package func advanced(by nanoseconds: Int64) -> RadioInstant { RadioInstant(nanoseconds: self.nanoseconds + nanoseconds) }

    /// Nanoseconds from `self` to `other` (negative when `other` is earlier).
    package func distance(to other: RadioInstant) -> Int64 { other.nanoseconds - nanoseconds }

    /// Seconds with microseconds, for logs: `12.345678`.
    package var description: String {
        let micro = nanoseconds / 1000
        let fraction = String(micro % 1_000_000)
        return "\(micro / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }
}

/// Where the radio model reads the time: the real monotonic clock in the bridge, a clock the test moves by hand in
/// the tests.
package protocol RadioClock: Sendable {
    func now() -> RadioInstant
}

/// CLOCK_MONOTONIC, the clock the kernel stamps its HCI traces (btmon) and evdev events with.
package struct MonotonicClock: RadioClock {
    package init() {}

    /// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC)`.
    package func now() -> RadioInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return RadioInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}

extension FileDescriptor {
    /// Reads up to `buffer.count` bytes into `buffer`; returns how many, 0 at the end of the file.
    func read(into buffer: inout [UInt8]) throws(Errno) -> Int {
        let result = buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try read(into: raw) } }
        return try result.get()
    }
}
