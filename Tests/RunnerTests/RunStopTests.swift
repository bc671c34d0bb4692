import Foundation
import Synchronization
import Runner
import ScenarioDriver
import Testing

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
}
