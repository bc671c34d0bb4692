/// A percentile of a sample with its confidence interval: a bootstrap over the samples (Efron's percentile
/// interval), resampled with a fixed seed so a report says the same every time it is written.
package struct PercentileInterval: Sendable, Equatable {
    /// 0…100.
    package var percentile: Double
    /// The percentile of the samples, as everywhere (`LatencyRecorder`: HdrHistogram's, within 0.1 %).
    package var value: Double
    /// The interval's ends, in ms; nil when too few samples lie beyond the percentile for an interval
    /// (`PercentileInterval.minimumBeyond`).
    package var low: Double?
    package var high: Double?

    package init(percentile: Double, value: Double, low: Double?, high: Double?) {
        self.percentile = percentile
        self.value = value
        self.low = low
        self.high = high
    }

    /// How many resamples: enough that the interval's ends move by well under the samples' own spacing between seeds.
    package static let resamples = 2000
    /// The seed of every report's bootstrap.
    package static let seed: UInt64 = 0x0048_494C_5F42_4F4F
    /// The interval's confidence.
    package static let confidence = 0.95
    /// Fewest samples that must lie above the percentile (below it, for one under 50) for an interval: a bootstrap
    /// never reaches past the largest sample, so with fewer its interval of a p95 would be too narrow to trust. A
    /// p95 needs 40 samples, a p50 4.
    package static let minimumBeyond = 2.0

    /// Each percentile of `samples` with its interval.
    ///
    /// The bootstrap draws `resamples` samples of the same size, with replacement, and takes each one's percentile
    /// (nearest rank: the ⌈p/100 · n⌉-th smallest, HdrHistogram's definition without its buckets); the interval is
    /// the 2.5th and the 97.5th percentile of those.
    ///
    /// - Parameters:
    ///   - samples: the latencies, in ms.
    ///   - percentiles: 0…100 each.
    /// - Returns: one entry per percentile, in the order asked; empty for no samples.
    package static func of(_ samples: [Double], percentiles: [Double], confidence: Double = confidence,
                           resamples: Int = resamples, seed: UInt64 = seed) -> [PercentileInterval]
    {
        guard !samples.isEmpty else { return [] }
        let recorder = LatencyRecorder(samples)
        let sorted = samples.sorted()
        let n = sorted.count
        let ranks = percentiles.map { nearestRank($0, count: n) }
        let draws = resampledPercentiles(sorted, ranks: ranks, resamples: resamples, seed: seed)
        return percentiles.enumerated().map { index, percentile in
            let share = percentile / 100
            let beyond = Double(n) * Swift.min(share, 1 - share)
            let value = recorder.percentile(percentile) ?? sorted[ranks[index] - 1]
            guard beyond >= minimumBeyond, resamples > 0 else {
                return PercentileInterval(percentile: percentile, value: value, low: nil, high: nil)
            }
            let estimates = draws[index].sorted()
            let tail = (1 - confidence) / 2
            return PercentileInterval(
                percentile: percentile, value: value,
                low: estimates[nearestRank(tail * 100, count: resamples) - 1],
                high: estimates[nearestRank((1 - tail) * 100, count: resamples) - 1])
        }
    }

    /// The rank (from 1) of percentile `p` among `count` sorted values: ⌈p/100 · count⌉, at least 1.
    package static func nearestRank(_ p: Double, count: Int) -> Int {
        Swift.min(count, Swift.max(1, Int((p / 100 * Double(count)).rounded(.up))))
    }

    /// For each resample, the value at each rank. A resample is n indices into the sorted samples, counted per
    /// index; its k-th smallest value is where the running count reaches k.
    package static func resampledPercentiles(_ sorted: [Double], ranks: [Int], resamples: Int, seed: UInt64)
        -> [[Double]]
    {
        let n = sorted.count
        var generator = SplitMix64(seed: seed)
        var draws = Array(repeating: [Double](), count: ranks.count)
        for index in draws.indices { draws[index].reserveCapacity(resamples) }
        let order = ranks.indices.sorted { ranks[$0] < ranks[$1] }
        var counts = [Int32](repeating: 0, count: n)
        counts.withUnsafeMutableBufferPointer { counts in
            for _ in 0..<resamples {
                for index in 0..<n { counts[index] = 0 }
                for _ in 0..<n { counts[generator.index(below: n)] += 1 }
                var running = 0
                var next = 0
                for index in 0..<n where next < order.count {
                    running += Int(counts[index])
                    while next < order.count && running >= ranks[order[next]] {
                        draws[order[next]].append(sorted[index])
                        next += 1
                    }
                }
            }
        }
        return draws
    }
}
