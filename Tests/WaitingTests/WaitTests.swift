import HILTestSupport
import Testing
import Waiting

@Suite("Wait: an event raced against a named timeout")
struct WaitTests {
    @Test("times out with a message that names what was awaited and for how long")
    func timesOut() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        defer { continuation.finish() }
        let error = await #expect(throws: WaitTimeout.self) {
            _ = try await Wait.within(.milliseconds(50), for: "Powered = true on hci0") {
                for await value in stream where value > 0 { return value }
                return 0
            }
        }
        #expect(error?.description == "no Powered = true on hci0 within 0.05 seconds")
    }

    @Test("returns when the event comes, long before the timeout")
    func returnsEarly() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let start = ContinuousClock.now
        Task {
            try await Task.sleep(for: .milliseconds(30))
            continuation.yield(0)
            continuation.yield(5)
        }
        let value = try await Wait.within(longWait, for: "a positive value") {
            for await value in stream where value > 0 { return value }
            return -1
        }
        #expect(value == 5)
        #expect(ContinuousClock.now - start < promptly)
    }

    @Test("a cancelled task ends the wait at once with CancellationError")
    func cancellation() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        defer { continuation.finish() }
        await expectEndsWhenCancelled {
            try await Wait.within(longWait, for: "nothing") {
                for await _ in stream {}
                try Task.checkCancellation()
                return 0
            }
        }
    }

    @Test("what the operation throws comes through")
    func operationThrows() async {
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            _ = try await Wait.within(longWait, for: "a reply") { () throws -> Int in throw Refused() }
        }
    }
}

@Suite("Pace: sleeps that are the behaviour, ended by cancellation")
struct PaceTests {
    @Test("every: runs after each interval until the body says stop")
    func everyStops() async {
        var runs = 0
        let start = ContinuousClock.now
        await Pace.every(.milliseconds(2)) {
            runs += 1
            return runs < 3
        }
        #expect(runs == 3)
        #expect(ContinuousClock.now - start < promptly)
    }

    @Test("every: a cancelled task ends the pacing at once, without running the body again")
    func everyCancelled() async {
        let start = ContinuousClock.now
        let pacing = Task {
            var runs = 0
            await Pace.every(longWait) {
                runs += 1
                return true
            }
            return runs
        }
        pacing.cancel()
        #expect(await pacing.value == 0)
        #expect(ContinuousClock.now - start < promptly)
    }

    @Test("after: the action runs once the delay has passed; a cancelled timer ends at once and never runs it")
    func after() async {
        let (fired, continuation) = AsyncStream<String>.makeStream()
        let start = ContinuousClock.now
        let calledOff = Pace.after(longWait) { continuation.yield("called off") }
        calledOff.cancel()
        await calledOff.value
        #expect(ContinuousClock.now - start < promptly)
        Pace.after(.milliseconds(40)) {
            continuation.yield("fired")
            continuation.finish()
        }
        var seen: [String] = []
        for await event in fired { seen.append(event) }
        #expect(seen == ["fired"])
    }
}
