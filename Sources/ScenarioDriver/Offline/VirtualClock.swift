package import InputCodes
import Synchronization

/// A clock that never waits: sleeping moves it on at once. `hil replay` runs a scenario in it.
package final class VirtualClock: DriverClock {
    private let current: Mutex<UInt64>

    /// Starts at `start` (1 s, so no time is zero).
    package init(start: MonotonicTime = MonotonicTime(nanoseconds: 1_000_000_000)) {
        current = Mutex(start.nanoseconds)
    }

    package func now() -> MonotonicTime {
        MonotonicTime(nanoseconds: current.withLock { $0 })
    }

    package func sleep(until time: MonotonicTime) async throws {
        current.withLock { $0 = max($0, time.nanoseconds) }
    }
}
