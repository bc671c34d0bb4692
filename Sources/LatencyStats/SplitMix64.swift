/// A small deterministic random generator (SplitMix64, Steele, Lea and Flood 2014): the bootstrap's resampling, so
/// a report's intervals are the same every time it is written, and tests, so a failure reproduces with its seed.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `0..<bound`, without the modulo bias (Lemire's multiply-shift with rejection).
    package mutating func index(below bound: Int) -> Int {
        precondition(bound > 0, "an index below \(bound)")
        let limit = UInt64(bound)
        var product = next().multipliedFullWidth(by: limit)
        if product.low < limit {
            let threshold = (0 &- limit) % limit
            while product.low < threshold { product = next().multipliedFullWidth(by: limit) }
        }
        return Int(product.high)
    }
}
