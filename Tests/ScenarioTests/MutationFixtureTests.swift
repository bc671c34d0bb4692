import Foundation
import Scenario
import ScenarioDriver
import Testing

/// Mutations/fixtures/: the scenarios a mutation run uses to show one check beside another (docs/mutations.md).
@Suite("The mutation fixtures stay valid and pass against the unchanged computer")
struct MutationFixtureTests {
    @Test("the loosened swipe: valid, and an unchanged computer passes it offline; its tolerance hides a move in ten")
    func looseSwipe() async throws {
        let scenario = try Scenario.load(contentsOf: packageRoot.appendingPathComponent("Mutations/fixtures/loose-swipe.json").path)
        let replay = await OfflineReplay.run(scenario)
        #expect(replay.verdict == .ok, "\(replay.errors)")
        // What makes it the fixture it is: a loss of one move in ten of a 120 px swipe (about 12 px) lies inside the
        // step's own tolerance, so only the accounting (docs/scenarios.md, "What every run checks") can catch it.
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Mutations/fixtures/loose-swipe.json"), encoding: .utf8)
        #expect(text.contains(#""total": 120, "tolerance": 50"#) && text.contains(#""total": -120, "tolerance": 50"#))
    }
}
