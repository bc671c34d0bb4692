import HILTestSupport
import Testing
import Synchronization
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

    @Test("settled: once no change came for the quiet interval; not settled when changes go on until the timeout")
    func settled() async throws {
        let changes = Changes()
        let start = ContinuousClock.now
        #expect(try await changes.settled(quiet: .milliseconds(30), timeout: longWait))
        #expect(ContinuousClock.now - start >= .milliseconds(30) && ContinuousClock.now - start < promptly)

        let ticker = Task.detached {
            while !Task.isCancelled {
                changes.signal()
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        defer { ticker.cancel() }
        #expect(try await changes.settled(quiet: .milliseconds(100), timeout: .milliseconds(300)) == false)
    }

    @Test("until and upTo: read once, again at each change; a WaitTimeout naming what, or nil, when time is up")
    func untilAndUpTo() async throws {
        let changes = Changes()
        let value = Mutex(0)
        Task.detached {
            for step in 1...3 {
                try await Task.sleep(for: .milliseconds(10))
                value.withLock { $0 = step }
                changes.signal()
            }
        }
        #expect(try await changes.until("three", timeout: longWait) { value.withLock { $0 } == 3 ? 3 : nil } == 3)
        #expect(try await changes.upTo(.milliseconds(20)) { nil as Int? } == nil)
        let error = await #expect(throws: WaitTimeout.self) {
            _ = try await changes.until("the pairing code", timeout: .milliseconds(20)) { nil as Int? }
        }
        #expect(error?.description == "no the pairing code within 0.02 seconds")
    }
}
