/// A stream's pacing: command `index` leaves at `origin + index / rate`, whatever the sends before it took, so a late
/// send is not made up for by crowding the next. The pause is the behaviour (the rate under test), and a cancelled
/// task ends it at once.
struct SendSchedule {
    let origin: ContinuousClock.Instant
    let interval: Double

    /// From now at `rate` commands per second.
    init(rate: Double) {
        origin = .now
        interval = 1.0 / rate
    }

    /// When command `index` is due.
    func due(_ index: Int) -> ContinuousClock.Instant { origin + .nanoseconds(Int64(Double(index) * interval * 1e9)) }

    /// Waits until command `index` is due.
    /// - Throws: `CancellationError` when the task is cancelled.
    func wait(for index: Int) async throws {
        try await Task.sleep(until: due(index), clock: .continuous)
    }

    /// Seconds since the first command was due.
    var elapsed: Double { (ContinuousClock.now - origin) / .seconds(1) }
}
