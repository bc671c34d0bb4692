import Foundation
import LatencyStats
import Testing

@Suite("The shift of one sample's median from another's, with its interval")
struct MedianShiftTests {
    /// A latency-like sample: 1 ms and an exponential tail, from a fixed seed.
    static func sample(_ count: Int, seed: UInt64, plus delay: Double = 0) -> [Double] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let uniform = (Double(random.next() >> 11) + 0.5) / Double(1 << 53)
            return 1 + 0.4 * -log(uniform) + delay
        }
    }

    @Test("a known delay added to another draw of the same distribution is found within its interval", arguments: [0.0, 5, 20])
    func knownDelay(delay: Double) throws {
        let shift = try #require(MedianShift.of(baseline: Self.sample(1000, seed: 1), shifted: Self.sample(1000, seed: 2, plus: delay)))
        #expect(abs(shift.shift - delay) < 0.05, "\(shift)")
        #expect(shift.low <= delay && delay <= shift.high, "\(shift)")
        #expect(shift.high - shift.low < 0.15, "\(shift)")
    }

    @Test("the shift is the difference of the p50s (within the histogram's 0.1 %)")
    func exactDifference() throws {
        let shift = try #require(MedianShift.of(baseline: [3, 1, 2, 10], shifted: [7, 5, 6]))
        // The 2nd of 4 (2) and the 2nd of 3 (6).
        #expect(abs(shift.shift - 4) < 0.01)
        #expect(shift.low <= 4 && 4 <= shift.high)
    }

    @Test("the same samples give the same interval every time; fewer samples give a wider one")
    func deterministic() throws {
        let a = Self.sample(200, seed: 3)
        let b = Self.sample(200, seed: 4, plus: 5)
        #expect(MedianShift.of(baseline: a, shifted: b) == MedianShift.of(baseline: a, shifted: b))
        let wide = try #require(MedianShift.of(baseline: Array(a.prefix(20)), shifted: Array(b.prefix(20))))
        let narrow = try #require(MedianShift.of(baseline: a, shifted: b))
        #expect(wide.high - wide.low > narrow.high - narrow.low)
    }

    @Test("no shift without samples on both sides")
    func empty() {
        #expect(MedianShift.of(baseline: [], shifted: [1]) == nil)
        #expect(MedianShift.of(baseline: [1], shifted: []) == nil)
    }
}
