import InputCodes

/// A point on CLOCK_MONOTONIC a wait must end by, and the time left until then.
struct Deadline {
    let end: MonotonicTime

    /// `timeout` from now; a negative timeout is already over.
    init(after timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds: UInt64
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) {
            nanoseconds = 0
        } else if seconds >= Int64(UInt64.max / 2_000_000_000) {
            nanoseconds = UInt64.max / 2  // "forever", without overflowing the sum below
        } else {
            nanoseconds = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        }
        end = MonotonicTime(nanoseconds: MonotonicTime.now().nanoseconds + nanoseconds)
    }

    /// Nanoseconds left, 0 once the deadline has passed.
    var remainingNanoseconds: UInt64 {
        let now = MonotonicTime.now()
        return end > now ? end.nanoseconds - now.nanoseconds : 0
    }

    var hasPassed: Bool { remainingNanoseconds == 0 }

    /// The time left in whole milliseconds for `poll`, rounded up so a wait never ends early and spins.
    var pollMilliseconds: Int32 {
        let milliseconds = (remainingNanoseconds + 999_999) / 1_000_000
        return Int32(clamping: milliseconds)
    }
}
