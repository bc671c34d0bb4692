/// Exact median and range of a few values (a rung's repetitions, a run's per-scenario phases), where a histogram's
/// bucketed percentiles would be too coarse.
package struct Spread: Sendable, Equatable {
    /// The middle value, or the mean of the middle two for an even count.
    package var median: Double
    package var min: Double
    package var max: Double

    package init(median: Double, min: Double, max: Double) {
        self.median = median
        self.min = min
        self.max = max
    }

    /// nil for no values.
    package init?(_ values: [Double]) {
        let sorted = values.sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        let middle = sorted.count / 2
        self.init(median: sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2, min: first, max: last)
    }
}
