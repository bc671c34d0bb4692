import Foundation

/// The Mann–Whitney U test (Wilcoxon rank-sum) of two independent samples: whether values of one tend to be larger
/// than values of the other, without assuming any distribution. Latencies are skewed and long-tailed, so a test on
/// ranks fits them where a t-test on means would not.
///
/// The p-value is the normal approximation with the tie correction and a continuity correction of ½: mid-ranks for
/// tied values (latencies are written to the µs, so equal values occur), and a variance reduced by
/// Σ(t³ − t) / (N(N − 1)) over the groups of t equal values.
package struct MannWhitneyU: Sendable, Equatable {
    /// How many values in the first sample and in the second.
    package var firstCount: Int
    package var secondCount: Int
    /// U of the first sample: how many (first, second) pairs have the first value larger, ties counting ½.
    package var u: Double
    /// (U − mean) / standard deviation, continuity-corrected toward 0: above 0 when the first sample tends larger.
    package var z: Double
    /// Two-sided: the chance of a |z| at least this large when both samples come from one distribution.
    package var pValue: Double

    /// U / (n₁ n₂): the chance that a value of the first sample is larger than one of the second (ties ½); 0.5 when
    /// neither tends larger (Vargha and Delaney's A).
    package var probabilityFirstLarger: Double {
        u / (Double(firstCount) * Double(secondCount))
    }

    /// Tests `first` against `second`; nil when either is empty.
    package init?(_ first: [Double], _ second: [Double]) {
        guard !first.isEmpty, !second.isEmpty else { return nil }
        let n1 = Double(first.count), n2 = Double(second.count), total = n1 + n2
        // Sorted values, each marked with its sample; mid-ranks over runs of equal values.
        let values = (first.map { ($0, true) } + second.map { ($0, false) }).sorted { $0.0 < $1.0 }
        var rankSumFirst = 0.0
        var tieTerm = 0.0
        var start = 0
        while start < values.count {
            var end = start + 1
            while end < values.count && values[end].0 == values[start].0 { end += 1 }
            let midRank = Double(start + 1 + end) / 2
            for index in start..<end where values[index].1 { rankSumFirst += midRank }
            let tied = Double(end - start)
            tieTerm += tied * tied * tied - tied
            start = end
        }
        let u = rankSumFirst - n1 * (n1 + 1) / 2
        let mean = n1 * n2 / 2
        let variance = n1 * n2 / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
        var z = 0.0
        if variance > 0 {
            let distance = u - mean
            z = (distance > 0 ? 1 : -1) * Swift.max(abs(distance) - 0.5, 0) / variance.squareRoot()
        }
        firstCount = first.count
        secondCount = second.count
        self.u = u
        self.z = z
        self.pValue = Swift.min(1, erfc(abs(z) / 2.0.squareRoot()))
    }
}
