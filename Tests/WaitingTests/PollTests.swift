import Synchronization
import HILTestSupport
import Testing
import Waiting

/// A value another task sets: what a poll waits for.
private final class Box: Sendable {
    private let value = Mutex<Int?>(nil)
    var current: Int? { value.withLock { $0 } }
    func set(_ new: Int) { value.withLock { $0 = new } }
}

@Suite("Poll: the one cancellation-aware loop for what nothing signals")
struct PollTests {
    @Test("times out with a message that names what was awaited and for how long")
    func timesOut() async {
        let error = await #expect(throws: WaitTimeout.self) {
            _ = try await Poll.until("the pairing code", timeout: .milliseconds(50)) { nil as Int? }
        }
        #expect(error?.description == "no the pairing code within 0.05 seconds")
        #expect(error == WaitTimeout("the pairing code", timeout: .milliseconds(50)))
    }

    @Test("returns as soon as the value comes, long before the timeout")
    func returnsEarly() async throws {
        let box = Box()
        let start = ContinuousClock.now
        Task {
            try await Task.sleep(for: .milliseconds(30))
            box.set(7)
        }
        let value = try await Poll.until("seven", timeout: longWait, every: .milliseconds(5)) { box.current }
        #expect(value == 7)
        #expect(ContinuousClock.now - start < promptly)
    }

    @Test("a cancelled task ends the wait at once with CancellationError")
    func cancellation() async {
        await expectEndsWhenCancelled { try await Poll.until("nothing", timeout: longWait) { nil as Int? } }
    }

    @Test("without a time limit: returns the value, or ends at once when cancelled")
    func unlimited() async throws {
        var reads = 0
        let value = try await Poll.until(every: .milliseconds(1)) { () -> Int? in
            reads += 1
            return reads == 3 ? reads : nil
        }
        #expect(value == 3)
        let start = ContinuousClock.now
        let waiting = Task { try await Poll.until(every: .milliseconds(10)) { nil as Int? } }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(ContinuousClock.now - start < promptly)
    }

    @Test("on another clock: a virtual one times out in its own time, without waiting in real time")
    func virtualClock() async {
        let clock = SteppingClock()
        let start = ContinuousClock.now
        var reads = 0
        let error = await #expect(throws: WaitTimeout.self) {
            _ = try await Poll.until("the pairing code", timeout: .seconds(3600), every: .seconds(1), on: clock) { () -> Int? in
                reads += 1
                return nil
            }
        }
        #expect(error?.description == "no the pairing code within 3600.0 seconds")
        #expect(reads == 3601)
        #expect(ContinuousClock.now - start < promptly)
    }

    @Test("what read throws ends the wait with that error")
    func readThrows() async {
        struct Died: Error {}
        await #expect(throws: Died.self) {
            _ = try await Poll.until("a ready file", timeout: longWait) { () throws -> Int? in throw Died() }
        }
    }

    @Test("upTo: nil when the time is up, the value when it comes, CancellationError when cancelled")
    func upTo() async throws {
        #expect(try await Poll.upTo(.milliseconds(20), every: .milliseconds(5)) { nil as Int? } == nil)
        #expect(try await Poll.upTo(longWait) { 4 } == 4)
        let start = ContinuousClock.now
        let waiting = Task { try await Poll.upTo(longWait) { nil as Int? } }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(ContinuousClock.now - start < promptly)
    }
}

/// A clock whose sleeps move it on at once (as `hil replay`'s virtual clock does).
private final class SteppingClock: Clock, @unchecked Sendable {
    // Safety: one test task uses it at a time.
    private var current = ContinuousClock.Instant.now
    var now: ContinuousClock.Instant { current }
    var minimumResolution: Duration { .nanoseconds(1) }
    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        current = max(current, deadline)
    }
}
