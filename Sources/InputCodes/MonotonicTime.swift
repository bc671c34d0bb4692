import Glibc

/// A CLOCK_MONOTONIC instant in nanoseconds: the clock evdev timestamps use once `EVIOCSCLOCKID` selects it,
/// and the clock every latency in the rig is measured on.
public struct MonotonicTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// From an evdev event's `timeval` (seconds and microseconds).
    public init(seconds: Int, microseconds: Int) {
        nanoseconds = UInt64(seconds) * 1_000_000_000 + UInt64(microseconds) * 1_000
    }

    public static func now() -> MonotonicTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicTime(nanoseconds: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
    }

    /// `later - earlier` as a Duration (negative when `later` is earlier).
    public static func - (later: MonotonicTime, earlier: MonotonicTime) -> Duration {
        later >= earlier
            ? .nanoseconds(Int64(later.nanoseconds - earlier.nanoseconds))
            : .nanoseconds(-Int64(earlier.nanoseconds - later.nanoseconds))
    }

    public static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public var description: String {
        let seconds = nanoseconds / 1_000_000_000
        let micros = (nanoseconds % 1_000_000_000) / 1_000
        let text = String(micros)
        return "\(seconds).\(String(repeating: "0", count: 6 - text.count))\(text)"
    }
}
