import Histogram

/// A latency distribution's headline figures, in milliseconds: what reports print and baselines compare.
package struct LatencySummary: Sendable, Hashable {
    package var count: Int
    package var p50: Double?
    package var p95: Double?
    package var p99: Double?
    package var max: Double?

    package init(count: Int, p50: Double?, p95: Double?, p99: Double?, max: Double?) {
        self.count = count
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.max = max
    }

    package static let empty = LatencySummary(count: 0, p50: nil, p95: nil, p99: nil, max: nil)
}

/// Latency samples in an HdrHistogram at 1 µs resolution and 3 significant digits (0.1 %), up to 10 minutes.
/// Percentiles are HdrHistogram's: the value at or below which that share of samples falls, within 0.1 %.
package struct LatencyRecorder: Sendable {
    private var histogram = Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
    /// The exact largest sample (the histogram's is within its precision).
    private var largest: Double?

    package init() {}

    package init(_ samples: some Sequence<Double>) {
        for sample in samples { record(sample) }
    }

    package var count: Int { Int(histogram.totalCount) }

    /// Records one sample in milliseconds; negative samples count as 0 (a kernel stage can be a few µs below:
    /// the event is stamped during the uinput write), so every summary figure is 0 or more.
    package mutating func record(_ milliseconds: Double) {
        let value = Swift.max(0, milliseconds)
        histogram.record(UInt64(Swift.min(value * 1000, 600_000_000).rounded()))
        largest = Swift.max(largest ?? value, value)
    }

    package mutating func add(_ other: LatencyRecorder) {
        histogram.add(other.histogram)
        if let theirs = other.largest { largest = Swift.max(largest ?? theirs, theirs) }
    }

    /// The value at percentile `p` (0…100), in ms.
    package func percentile(_ p: Double) -> Double? {
        guard histogram.totalCount > 0 else { return nil }
        return Double(histogram.valueAtPercentile(p)) / 1000
    }

    package var summary: LatencySummary {
        guard count > 0 else { return .empty }
        // The histogram's top percentile is its bucket's upper edge; the recorded maximum is exact.
        return LatencySummary(count: count, p50: percentile(50), p95: percentile(95), p99: percentile(99), max: largest)
    }
}
