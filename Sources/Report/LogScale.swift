import Foundation

/// A logarithmic axis over whole decades that holds every positive sample: 0.1 … 100 ms.
/// Samples at or below 0 (a tap's `gesture` stage) sit on the left edge.
struct LogScale {
    let low: Double
    let high: Double

    init(samples: [Double]) {
        let positive = samples.filter { $0 > 0 }
        let smallest = positive.min() ?? 0.1
        let largest = Swift.max(positive.max() ?? 1, smallest)
        low = pow(10, floor(log10(smallest)))
        let top = pow(10, ceil(log10(largest)))
        high = top > low ? top : low * 10
    }

    /// 0 … 1 across the axis.
    func fraction(_ value: Double) -> Double {
        let clamped = Swift.min(Swift.max(value, low), high)
        return (log10(clamped) - log10(low)) / (log10(high) - log10(low))
    }

    /// The value at a fraction of the axis.
    func value(at fraction: Double) -> Double {
        pow(10, log10(low) + fraction * (log10(high) - log10(low)))
    }

    /// Every power of ten from `low` to `high`.
    var decades: [Double] {
        let count = Int((log10(high) - log10(low)).rounded())
        return (0...count).map { low * pow(10, Double($0)) }
    }

    /// `0.01`, `1`, `1000`
    static func label(_ value: Double) -> String {
        value >= 1 ? String(Int(value.rounded())) : String(format: "%g", value)
    }
}
