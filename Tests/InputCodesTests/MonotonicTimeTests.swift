import InputCodes
import Testing

@Suite("Monotonic time")
struct MonotonicTimeTests {
    @Test("now() moves forward; differences are durations; evdev timevals convert")
    func basics() {
        let a = MonotonicTime.now()
        let b = MonotonicTime.now()
        #expect(b >= a)
        #expect(MonotonicTime(seconds: 12, microseconds: 345) == MonotonicTime(nanoseconds: 12_000_345_000))
        #expect(MonotonicTime(nanoseconds: 3_000_000) - MonotonicTime(nanoseconds: 1_000_000) == .milliseconds(2))
        #expect(MonotonicTime(nanoseconds: 1_000_000) - MonotonicTime(nanoseconds: 3_000_000) == .milliseconds(-2))
        #expect(MonotonicTime(nanoseconds: 5_000_042_000).description == "5.000042")
    }
}
