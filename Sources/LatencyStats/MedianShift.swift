/// How far one sample's median lies from another's, with a bootstrap interval: `hil calibrate`'s measured shift of
/// the latency when a known delay is injected.
///
/// The shift is the difference of the two p50s as everywhere (`LatencyRecorder`'s, within 0.1 %); as in
/// `PercentileInterval`, the resamples take nearest-rank medians. The interval is Efron's percentile interval of the
/// difference: each resample draws both samples anew (with replacement, from seeds fixed so a
/// report says the same every time), and the interval is the 2.5th and 97.5th percentile of the differences.
package struct MedianShift: Sendable, Equatable {
    /// The shifted sample's p50 minus the baseline's, in ms.
    package var shift: Double
    package var low: Double
    package var high: Double

    package init(shift: Double, low: Double, high: Double) {
        self.shift = shift
        self.low = low
        self.high = high
    }

    /// nil when either sample is empty.
    package static func of(baseline: [Double], shifted: [Double], confidence: Double = PercentileInterval.confidence,
                           resamples: Int = PercentileInterval.resamples, seed: UInt64 = PercentileInterval.seed) -> MedianShift?
    {
        guard !baseline.isEmpty, !shifted.isEmpty, resamples > 0 else { return nil }
        let before = baseline.sorted()
        let after = shifted.sorted()
        let rankBefore = PercentileInterval.nearestRank(50, count: before.count)
        let rankAfter = PercentileInterval.nearestRank(50, count: after.count)
        let drawsBefore = PercentileInterval.resampledPercentiles(before, ranks: [rankBefore], resamples: resamples, seed: seed)[0]
        // Another stream of the generator for the other sample, so the two are drawn independently.
        let drawsAfter = PercentileInterval.resampledPercentiles(after, ranks: [rankAfter], resamples: resamples, seed: seed ^ 0x5A5A_5A5A_5A5A_5A5A)[0]
        let differences = zip(drawsAfter, drawsBefore).map { $0 - $1 }.sorted()
        let tail = (1 - confidence) / 2
        return MedianShift(
            shift: (LatencyRecorder(after).percentile(50) ?? 0) - (LatencyRecorder(before).percentile(50) ?? 0),
            low: differences[PercentileInterval.nearestRank(tail * 100, count: differences.count) - 1],
            high: differences[PercentileInterval.nearestRank((1 - tail) * 100, count: differences.count) - 1])
    }
}
