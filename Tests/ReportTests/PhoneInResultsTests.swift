import Foundation
import Records
@testable import Report
import StrictJSON
import Testing

/// The phone that drove ble and hid (issue 52), named where a CI and a person look: results.json's environment and
/// each scenario, junit.xml's suite, the report's header, the Markdown summary's totals.
@Suite("The phone's stack and profile in every output")
struct PhoneInResultsTests {
    @Test("bumble:ios-like in the environment and on the scenario: in results.json, junit.xml, the report and the summary")
    func named() throws {
        var scenario = ScenarioResult(file: "Scenarios/cursor/swipe-right.json", name: "swipe right [ble]", outcome: .passed)
        scenario.transport = "ble"
        scenario.phone = "bumble:minimal mtu=23"
        let environment = RunEnvironment(rig: "vm", phone: "bumble:ios-like")
        let json = RunReport.json([scenario], environment: environment, startedAt: Date(timeIntervalSince1970: 0), wallMs: 1)
        let read = try RunResults.parse(try JSONParser().parse(json), file: "results.json")
        #expect(read.environments.first?.phone == "bumble:ios-like" && read.scenarios.first?.phone == "bumble:minimal mtu=23")
        #expect(RunReport.junit([scenario], environment: environment).contains("<property name=\"phone\" value=\"bumble:ios-like\"/>"))
        #expect(!RunReport.junit([scenario]).contains("property name=\"phone\""))
        #expect(HTMLReport.render(read).contains("phone bumble:ios-like"))
        #expect(MarkdownSummary.totalsLine(read, baseline: nil).contains("phone bumble:ios-like"))
    }
}
