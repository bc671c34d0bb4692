import LatencyStats
import Testing

@Suite("Latency distributions (HdrHistogram)")
struct LatencyRecorderTests {
    @Test("percentiles of 1…1000 ms are within HdrHistogram's 0.1 %")
    func percentiles() throws {
        let recorder = LatencyRecorder((1...1000).map(Double.init))
        let summary = recorder.summary
        #expect(summary.count == 1000)
        #expect(abs(try #require(summary.p50) - 500) <= 0.5)
        #expect(abs(try #require(summary.p95) - 950) <= 0.95)
        #expect(abs(try #require(summary.p99) - 990) <= 0.99)
        #expect(summary.max == 1000)
    }

    @Test("sub-millisecond samples keep microsecond resolution; the maximum is exact")
    func resolution() {
        let summary = LatencyRecorder([0.123, 0.456, 7.891]).summary
        #expect(summary.p50.map { abs($0 - 0.456) < 0.001 } == true)
        #expect(summary.max == 7.891)
    }

    @Test("negative samples count as 0, so no figure is negative")
    func negatives() {
        let summary = LatencyRecorder([-0.003, -0.001]).summary
        #expect(summary.max == 0)
        #expect(summary.p50 == 0)
    }

    @Test("an empty distribution has no percentiles; merging adds counts")
    func emptyAndMerge() {
        #expect(LatencyRecorder().summary == .empty)
        var a = LatencyRecorder([1, 2, 3])
        a.add(LatencyRecorder([10, 20]))
        #expect(a.count == 5)
        #expect(a.summary.max == 20)
    }
}
