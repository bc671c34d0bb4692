import HILTestSupport
import Testing

/// `RadioBtvirtOnRig`'s grid check, on made-up arrivals: it must pass packets held for 20 ms events even when one
/// event's wake-up was late, and fail packets that arrive as they were sent, 7 ms apart (no radio model).
@Suite("The on-rig test's grid fit: held packets pass, packets that never waited do not")
struct GridFitTests {
    static let period: Int64 = 20_000_000, tolerance: Int64 = 6_000_000

    func onGrid(_ milliseconds: [Double]) -> Int {
        GridFit(period: Self.period, tolerance: Self.tolerance, arrivals: milliseconds.map { Int64($0 * 1e6) })
            .latenesses.filter { $0 <= Self.tolerance }.count
    }

    @Test("at events 20 ms apart, with the first event's wake-up 9 ms late: 8 of 10 on the grid, the test's 7 met")
    func held() {
        #expect(onGrid([9, 9, 20.1, 20.1, 20.2, 40, 40, 60.3, 60.3, 80]) == 8)
    }

    @Test("as sent, 7 ms apart: at most 4 of 10 fit any grid, below the test's 7")
    func notHeld() {
        #expect(onGrid((0..<10).map { Double($0) * 7 + 0.1 }) <= 4)
    }
}
