import HILTestSupport
import Testing
import Waiting

@Suite("Retry: an operation tried again after it failed")
struct RetryTests {
    @Test("the first try that works and its number; the last error when none does")
    func retrying() async throws {
        struct Refused: Error, Equatable { var attempt: Int }
        let (value, attempt) = try await Retry.times(3, pause: .milliseconds(1)) { index in
            if index < 2 { throw Refused(attempt: index) }
            return "on \(index)"
        }
        #expect(value == "on 2" && attempt == 2)
        let error = await #expect(throws: Refused.self) {
            _ = try await Retry.times(3, pause: .milliseconds(1)) { index -> Int in throw Refused(attempt: index) }
        }
        #expect(error == Refused(attempt: 3))
    }

    @Test("a cancelled task does not try again")
    func cancelled() async {
        let task = Task {
            try await Retry.times(3, pause: .seconds(600)) { _ -> Int in throw CancellationError() }
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    @Test("within: tries until one works; a WaitTimeout naming what when none does in time")
    func within() async throws {
        struct Refused: Error {}
        var tries = 0
        let value = try await Retry.within(longWait, for: "registration", pause: .milliseconds(1)) { () throws -> Int in
            tries += 1
            if tries < 3 { throw Refused() }
            return tries
        }
        #expect(value == 3)
        let error = await #expect(throws: WaitTimeout.self) {
            _ = try await Retry.within(.milliseconds(30), for: "registration", pause: .milliseconds(5)) { () throws -> Int in throw Refused() }
        }
        #expect(error?.description.hasPrefix("no registration within") == true)
    }
}
