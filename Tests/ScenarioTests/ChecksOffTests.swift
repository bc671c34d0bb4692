import Foundation
import Scenario
import StrictJSON
import Testing
import Verifier

/// `checksOff`: a scenario may switch off a check every run makes only with its reason, and validate says where.
@Suite("checksOff: a check every run makes, switched off with a reason or refused with its JSON path")
struct ChecksOffTests {
    private func load(_ checksOff: String) throws -> (scenario: Scenario?, problems: [String]) {
        let text = #"{"name": "n", "checksOff": "# + checksOff + #", "steps": [{"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}]}"#
        let value = try JSONParser().parse(text)
        do {
            return (try Scenario.parse(value, file: "s.json"), [])
        } catch {
            return (nil, error.problems)
        }
    }

    @Test("a check switched off with its reason is read")
    func withReason() throws {
        let (scenario, problems) = try load(#"[{"check": "computerStage", "reason": "a flood of 1000 writes queues the computer's thread"}]"#)
        #expect(problems == [])
        #expect(scenario?.checksOff == [.computerStage: "a flood of 1000 writes queues the computer's thread"])
    }

    @Test("refused, with the JSON path: no reason, a reason that says nothing, an unknown check, one twice, an empty list", arguments: [
        (#"[{"check": "frames"}]"#, "checksOff[0]: frames is switched off without a reason: say why in \"reason\""),
        (#"[{"check": "frames", "reason": "flaky"}]"#, "checksOff[0].reason: \"flaky\" is no reason"),
        (#"[{"check": "frame", "reason": "the device is read by another test"}]"#, "checksOff[0].check: unknown value \"frame\" (did you mean \"frames\"?)"),
        (#"[{"check": "order", "reason": "udp crosses the control connection"}, {"check": "order", "reason": "udp crosses the control connection"}]"#, "checksOff[1].check: order is switched off twice"),
        (#"[]"#, "checksOff: an empty list switches nothing off"),
        (#"[{"check": "order", "reason": "udp crosses the control connection", "until": 3}]"#, "checksOff[0].until: unknown key"),
    ])
    func refused(checksOff: String, problem: String) throws {
        let (_, problems) = try load(checksOff)
        #expect(problems.contains { $0.hasPrefix(problem) }, "\(problems)")
    }
}
