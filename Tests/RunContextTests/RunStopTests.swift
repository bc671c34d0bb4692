import RunContext
import Foundation
import Synchronization
import HILTestSupport
import Testing
import Records

@Suite("Why a run stops early: an interrupt, or a rig that broke")
struct RunStopTests {
    private static func result(_ name: String, rigBroken: String? = nil) -> ScenarioResult {
        var result = ScenarioResult(file: "\(name).json", name: name, requirements: [], outcome: rigBroken == nil ? .passed : .error,
                                    steps: [], message: "", durationMs: 1)
        result.rigBroken = rigBroken
        return result
    }

    @Test("a result that broke the rig stops the run, and only the first reason is said")
    func rigBroken() {
        let stop = RunStop()
        #expect(stop.note(Self.result("fine")) == nil)
        #expect(!stop.isStopping)
        #expect(stop.note(Self.result("drag", rigBroken: "the computer's adapter hci0 no longer powers on")) == "the computer's adapter hci0 no longer powers on")
        #expect(stop.isStopping && !stop.wasInterrupted)
        #expect(stop.rigFailure == "the computer's adapter hci0 no longer powers on")
        // A second broken result (another lane) is not said again; an interrupt after it changes nothing.
        #expect(stop.note(Self.result("other", rigBroken: "the phone's adapter hci1 no longer powers on")) == nil)
        #expect(!stop.interrupt())
        #expect(stop.reason == .rigBroken("the computer's adapter hci0 no longer powers on"))
    }

    @Test("an interrupt stops the run once; a rig broken after it is not the reason")
    func interrupted() {
        let stop = RunStop()
        #expect(stop.interrupt())
        #expect(!stop.interrupt())
        #expect(stop.note(Self.result("drag", rigBroken: "the computer's adapter hci0 no longer powers on")) == nil)
        #expect(stop.wasInterrupted && stop.rigFailure == nil)
    }

    @Test("the run's work is waited for; after an interrupt only for the grace, and a scenario still under way then is left behind")
    func graceAfterTheInterrupt() async {
        // Ends by itself: waited for, however long it takes, while nothing interrupts.
        let ends = RunStop()
        #expect(await ends.run({ try? await Task.sleep(for: .milliseconds(100)) }, grace: .milliseconds(10)))

        // Interrupted, and it ends within the grace: waited for.
        let quick = RunStop()
        let quickEnded = await quick.run({
            _ = quick.interrupt()
            try? await Task.sleep(for: .milliseconds(20))
        }, grace: .seconds(10))
        #expect(quickEnded)

        // Interrupted, and it would wait 60 s more (a phone looking for a computer the interrupt stopped).
        let stuck = RunStop()
        let over = Mutex(false)
        let stuckEnded = await stuck.run({
            _ = stuck.interrupt()
            try? await Task.sleep(for: .seconds(60))
            over.withLock { $0 = true }
        }, grace: .milliseconds(200))
        #expect(!stuckEnded)
        #expect(!over.withLock { $0 }, "the run waited for the work to end")
    }

    @Test("the run's wait is an event, not a poll: a cancelled waiter returns false at once, the work left behind")
    func cancelledWaiter() async {
        let stop = RunStop()
        let start = ContinuousClock.now
        let waiting = Task { await stop.run({ try? await Task.sleep(for: longWait) }, grace: longWait) }
        waiting.cancel()
        #expect(await waiting.value == false)
        #expect(ContinuousClock.now - start < promptly, "the wait ran to the work's end")
    }

    @Test("an interrupt cancels the scenario work under way, and work begun after it at once; without one the work's value comes back")
    func cancelsWorkUnderWay() async throws {
        let calm = RunStop()
        #expect(try await calm.cancellable { 42 } == 42)

        // A minute-long wait step, interrupted after 100 ms: its sleep ends with the cancellation (only that throws).
        let stop = RunStop()
        let interrupter = Task {
            try await Task.sleep(for: .milliseconds(100))
            _ = stop.interrupt()
        }
        await #expect(throws: CancellationError.self) {
            try await stop.cancellable { try await Task.sleep(for: .seconds(60)) }
        }
        try await interrupter.value

        // Begun after the interrupt: not started at all.
        let late = Mutex(false)
        await #expect(throws: CancellationError.self) {
            try await stop.cancellable {
                late.withLock { $0 = true }
            }
        }
        #expect(!late.withLock { $0 })
    }
}
