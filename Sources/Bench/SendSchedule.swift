import Foundation
import LatencyStats

/// A stream's pacing: command `index` leaves at `origin + index / rate`, whatever the sends before it took, so a late
/// send is not made up for by crowding the next. The pause is the behaviour (the rate under test), and a cancelled
/// task ends it at once.
///
/// Dithered, command `index` leaves at `origin + (index + u) / rate`, u uniform in [0, 1) from a fixed seed: the
/// same mean rate and order, but the sends no longer fall on a few phases of a periodic radio. At 100 Hz against
/// the vm rig's 15 ms connection events a regular stream hits three phases 5 ms apart, set by where it started, so
/// its p50 is the middle one of three clusters and the shift between two streams' p50s is off by the difference of
/// their start phases (up to ±5 ms); dithered, the phases are even and the median's shift is the delay's
/// (docs/report.md, "The error budget").
package struct SendSchedule {
    let origin: ContinuousClock.Instant
    let interval: Double
    /// The seed of the dither; nil: regular.
    let dither: UInt64?

    /// From now at `rate` commands per second; `dither` seeds the offsets of a dithered stream.
    init(rate: Double, dither: UInt64? = nil) {
        origin = .now
        interval = 1.0 / rate
        self.dither = dither
    }

    /// Command `index`'s offset within its interval, in [0, 1): 0 when regular.
    func offset(_ index: Int) -> Double {
        guard let dither else { return 0 }
        var generator = SplitMix64(seed: dither &+ UInt64(index))
        return Double(generator.next() >> 11) / Double(1 << 53)
    }

    /// When command `index` is due.
    func due(_ index: Int) -> ContinuousClock.Instant {
        origin + .nanoseconds(Int64((Double(index) + offset(index)) * interval * 1e9))
    }

    /// Waits until command `index` is due.
    /// - Throws: `CancellationError` when the task is cancelled.
    func wait(for index: Int) async throws {
        try await Task.sleep(until: due(index), clock: .continuous)
    }

    /// The seed `hil bench` and `hil soak` dither with (fixed, so a run repeats); calibrate has its own.
    static let streamDither: UInt64 = 0x6265_6E63_6864_6974 // "benchdit"

    /// How a stream was paced, for bench.json's and soak.json's `pacing`.
    package static func pacing(dithered: Bool, rate: Double, which: String) -> String {
        let slot = String(format: "%g", (1000 / rate * 1000).rounded() / 1000)
        return dithered
            ? "\(which): each send at a uniform offset within its \(slot) ms slot (fixed seed), so a periodic radio's events meet the stream at even phases; the mean rate and order kept"
            : "\(which): every send on a \(slot) ms grid (--regular-pace)"
    }

    /// Seconds since the first command was due.
    var elapsed: Double { (ContinuousClock.now - origin) / .seconds(1) }
}
