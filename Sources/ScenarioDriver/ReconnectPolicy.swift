package import Scenario

/// The phone's reconnection rules: after an unexpected disconnect it shows "reconnecting" and tries to
/// reconnect, at most `maxAttempts` times; when all fail it shows "disconnected" and waits for the user.
/// RemoteTouch's BLE app (R12) tries every `interval` (5 s, 10 tries); the iPad design's network app backs off
/// exponentially, 2^attempt × `interval` (1, 2, 4, 8, 16 s, 5 tries). Time is passed in, as in the gesture model.
package struct ReconnectPolicy: Sendable, Hashable {
    package enum State: Sendable, Hashable {
        case connected
        /// Trying again; `attempt` is the number of the next try (1-based).
        case reconnecting(attempt: Int)
        /// All tries failed: the user must reconnect by hand.
        case disconnected
    }

    /// The wait before the first try (and every try, unless `doubling`).
    package var interval: Duration
    package var maxAttempts: Int
    /// Each wait twice the one before (exponential backoff).
    package var doubling = false
    package private(set) var state: State = .connected
    /// When the next try is due (only while reconnecting).
    package private(set) var nextAttemptAt: Duration?

    /// How a transport's app tries again.
    package enum Rule: Sendable, Hashable {
        /// RemoteTouch's (R12): a try every `reconnectInterval`, at most `maxReconnectAttempts`.
        case everyInterval
        /// The iPad design's: 2^attempt × `backoffUnit`, at most `maxBackoffAttempts` tries.
        case exponentialBackoff
    }

    /// `rule` with the numbers a scenario's run settings give.
    package init(_ rule: Rule, _ run: RunSettings) {
        switch rule {
        case .everyInterval: self.init(interval: run.reconnectInterval, maxAttempts: run.maxReconnectAttempts)
        case .exponentialBackoff: self.init(interval: run.backoffUnit, maxAttempts: run.maxBackoffAttempts, doubling: true)
        }
    }

    package init(interval: Duration = .seconds(5), maxAttempts: Int = 10, doubling: Bool = false) {
        precondition(maxAttempts >= 1 && interval > .zero, "at least one try, at a positive interval")
        self.interval = interval
        self.maxAttempts = maxAttempts
        self.doubling = doubling
    }

    /// The wait before try `attempt` (1-based).
    package func wait(before attempt: Int) -> Duration {
        doubling ? interval * (1 << min(attempt - 1, 20)) : interval
    }

    /// The wait before the next try (the last one scheduled).
    package var currentWait: Duration {
        if case .reconnecting(let attempt) = state { return wait(before: attempt) }
        return interval
    }

    /// The link dropped without the user asking.
    package mutating func linkLost(at time: Duration) {
        guard state == .connected else { return }
        state = .reconnecting(attempt: 1)
        nextAttemptAt = time + interval
    }

    /// A try failed at `time`; the next is scheduled, or the policy gives up.
    package mutating func attemptFailed(at time: Duration) {
        guard case .reconnecting(let attempt) = state else { return }
        if attempt >= maxAttempts {
            state = .disconnected
            nextAttemptAt = nil
        } else {
            state = .reconnecting(attempt: attempt + 1)
            nextAttemptAt = time + wait(before: attempt + 1)
        }
    }

    /// A try (or the user's own reconnect) succeeded.
    package mutating func connected() {
        state = .connected
        nextAttemptAt = nil
    }

    /// The label the phone shows (R12.1, R12.3, R12.4; R5.1, R5.2).
    package var label: String {
        switch state {
        case .connected: "connected"
        case .reconnecting: "reconnecting"
        case .disconnected: "disconnected"
        }
    }
}
