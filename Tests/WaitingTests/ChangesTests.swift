import HILTestSupport
import Testing
import Waiting

@Suite("Changes: a change announced on another thread, awaited with a timeout")
struct ChangesTests {
    @Test("a change already announced returns at once; none within the timeout returns false")
    func seenAndTimedOut() async throws {
        let changes = Changes()
        let seen = changes.generation
        changes.signal()
        #expect(try await changes.next(after: seen, within: .zero))
        let start = ContinuousClock.now
        #expect(try await changes.next(after: changes.generation, within: .milliseconds(50)) == false)
        #expect(ContinuousClock.now - start >= .milliseconds(50))
    }

    @Test("a change from another thread wakes the waiter long before its timeout")
    func wakes() async throws {
        let changes = Changes()
        let seen = changes.generation
        let start = ContinuousClock.now
        Task.detached {
            try await Task.sleep(for: .milliseconds(30))
            changes.signal()
        }
        #expect(try await changes.next(after: seen, within: longWait))
        #expect(ContinuousClock.now - start < promptly)
        #expect(changes.generation == seen + 1)
    }

    @Test("every waiter wakes; a cancelled one ends at once with CancellationError")
    func everyWaiterAndCancellation() async throws {
        let changes = Changes()
        let seen = changes.generation
        async let first = changes.next(after: seen, within: longWait)
        async let second = changes.next(after: seen, within: longWait)
        try await Task.sleep(for: .milliseconds(20))
        changes.signal()
        let woken = try await [first, second]
        #expect(woken == [true, true])

        let waiter = Task { try await changes.next(after: changes.generation, within: longWait) }
        try await Task.sleep(for: .milliseconds(20))
        let start = ContinuousClock.now
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(ContinuousClock.now - start < promptly)
    }
}
