import Foundation
import GestureScript
import HILTestSupport
import InputCodes
import Processes
import Scenario
import ScenarioDriver
import StrictJSON
import Testing
import Verifier

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The quick suite, what `hil run Scenarios/` runs on every change, and the nightly suite, which adds the scenarios
/// whose real-time waits are their point (docs/scenarios.md, "Two suites").
let quickSuite = packageRoot.appendingPathComponent("Scenarios").path
let nightlySuite = packageRoot.appendingPathComponent("Scenarios-nightly").path

/// A suite's scenario files, sorted (as hil run expands a folder).
func scenarioFiles(in folder: String) -> [String] {
    let walker = FileManager.default.enumerator(atPath: folder)
    var files: [String] = []
    while let relative = walker?.nextObject() as? String {
        if relative.hasSuffix(".json") && !relative.hasSuffix(".schema.json") && !relative.hasSuffix("requirements.json") { files.append(folder + "/" + relative) }
    }
    return files.sorted()
}

/// Every shipped scenario: the quick suite's, then the nightly suite's.
func shippedScenarios() -> [String] {
    scenarioFiles(in: quickSuite) + scenarioFiles(in: nightlySuite)
}

@Suite("Scenarios: format, validation, offline check")
struct ScenarioTests {
    @Test("every shipped scenario loads, has expectations, and they hold offline")
    func shipped() async throws {
        let files = shippedScenarios()
        #expect(files.count >= 40)
        for file in files {
            let scenario = try Scenario.load(contentsOf: file)
            #expect(scenario.checkCount > 0, "\(file) checks nothing")
            let replay = await OfflineReplay.run(scenario)
            #expect(replay.errors.isEmpty, "\(file):\n\(replay.errors.joined(separator: "\n"))")
            #expect(replay.checkedSteps == scenario.expectations.compactMap(\.events).count + scenario.expectations.compactMap(\.received).count)
        }
    }

    /// Each shipped scenario with its first key expectation pointed at another key, or its first motion
    /// total moved out of tolerance: the offline check must reject every twin.
    @Test("a mutated twin of every shipped scenario fails the offline check")
    func mutants() async throws {
        for file in shippedScenarios() {
            var scenario = try Scenario.load(contentsOf: file)
            guard let index = scenario.expectations.firstIndex(where: { $0.events != nil }), var expectation = scenario.expectations[index].events else { continue }
            if var keys = expectation.keys, let first = keys.first {
                keys[0] = InputEvent(first.code == .keyA ? .keyEnter : .keyA, first.value)
                expectation.keys = keys
            } else if let (axis, check) = expectation.motion.first {
                switch check {
                case .total(let total, let tolerance): expectation.motion[axis] = .total(total + tolerance + 50, tolerance: tolerance)
                case .totalPercent(let total, let percent): expectation.motion[axis] = .totalPercent(total * 2 + 100, percent: percent)
                case .direction(let direction): expectation.motion[axis] = .direction(direction == .positive ? .negative : .positive)
                }
            } else if expectation.isAbsenceOnly {
                // "Nothing arrives" becomes "a click arrives".
                expectation = StepExpectation(withinMs: expectation.withinMs)
                expectation.keys = [InputEvent(.btnLeft, 1), InputEvent(.btnLeft, 0)]
            }
            scenario.expectations[index].events = expectation
            let replay = await OfflineReplay.run(scenario)
            #expect(!replay.errors.isEmpty, "the mutated twin of \(file) passed")
        }
    }

    /// The twins (VMRigIntegrationTests' SuiteRunOnRig runs some of them): made on the JSON, one per shipped
    /// scenario, each a valid scenario that differs from its original in an expectation; every twin whose change
    /// is to the expected events (`judgedByEvents`) must be rejected offline, since the rig runs only one of
    /// those per area.
    @Test("every shipped scenario has a mutated JSON twin: valid, changed, and rejected offline where offline can judge")
    func jsonMutants() async throws {
        var offlineRejected = 0
        for file in shippedScenarios() {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            guard let mutant = ScenarioMutant(text) else {
                Issue.record("\(file) has no mutated twin: it expects nothing a mutation can turn wrong")
                continue
            }
            let twin = try Scenario.parse(try JSONParser().parse(mutant.text), file: file + " (mutant)")
            let original = try Scenario.load(contentsOf: file)
            #expect(twin.expectations != original.expectations || twin.expectedRefusal != original.expectedRefusal,
                    "\(file): the twin (\(mutant.change)) expects the same")
            if mutant.judgedByEvents {
                #expect(await !OfflineReplay.run(twin).errors.isEmpty, "\(file): the twin (\(mutant.change)) passes offline")
                offlineRejected += 1
            }
        }
        #expect(offlineRejected >= 40)
    }

    @Test("expectations are read in every form")
    func forms() throws {
        let scenario = try Scenario.parse(try JSONParser().parse(#"""
            {"name": "forms", "run": {"writePath": "fd", "pairing": "none"}, "limits": {"p95Ms": 40, "maxMs": 120},
             "steps": [
               {"swipe": {"to": [300, 300], "durationMs": 100},
                "expect": {"motion": {"REL_X": {"total": 120, "tolerance": 2}, "REL_Y": 0, "REL_WHEEL_HI_RES": {"total": 720, "tolerancePercent": 5},
                                      "REL_HWHEEL": "zero"}, "nothingElse": true, "withinMs": 250}},
               {"button": "back", "expect": {"keys": ["KEY_LEFT 1", "KEY_LEFT 0"], "allowRepeat": true}},
               {"tap": {}, "expect": {"frames": [["BTN_LEFT 1"], ["BTN_LEFT 0"]]}},
               {"wait": {"ms": 500}, "expect": {"absent": ["EV_KEY"], "forMs": 500}}
             ]}
            """#), file: "forms.json")
        #expect(scenario.run.writePath == .fd)
        #expect(scenario.run.pairing == .none)
        #expect(scenario.limits == LatencyLimits(p95Ms: 40, maxMs: 120))
        let swipe = try #require(scenario.expectations[0].events)
        #expect(swipe.motion[.relX] == .total(120, tolerance: 2))
        #expect(swipe.motion[.relY] == .total(0, tolerance: 0))
        #expect(swipe.motion[.relWheelHiRes] == .totalPercent(720, percent: 5))
        #expect(swipe.motion[.relHWheel] == .direction(.zero))
        #expect(swipe.withinMs == 250 && swipe.nothingElse)
        #expect(scenario.expectations[1].events?.keys == [.press(.keyLeft), .release(.keyLeft)])
        #expect(scenario.expectations[1].events?.withinMs == StepExpectation.defaultWithinMs)
        #expect(scenario.expectations[2].events?.frames == [InputFrame([.press(.btnLeft)]), InputFrame([.release(.btnLeft)])])
        #expect(scenario.expectations[3].events?.isAbsenceOnly == true)
        #expect(scenario.expectations[3].events?.absentForMs == 500)
    }

    @Test("every problem of a scenario is reported with the file and its JSON path")
    func problems() throws {
        let value = try JSONParser().parse(#"""
            {"name": "bad", "limits": {"p95Ms": 200, "maxMs": 100}, "run": {"writePath": "bluetooth"},
             "steps": [
               {"tap": {}, "expect": {"keys": ["KEY_LEFT 1", "KEY_RIHGT 0", "REL_X 1"], "withinMs": "fast"}},
               {"swipe": {"to": [1, 1], "durationMs": 100}, "expect": {"motion": {"ABS_X": 1, "REL_Y": {"total": 1, "tolerance": 1, "tolerancePercent": 2}}}},
               {"wait": {"ms": 10}, "expect": {}},
               {"button": "back", "expect": {"frames": [[]], "absent": ["EV_FOO"], "colour": "red"}}
             ]}
            """#)
        do {
            _ = try Scenario.parse(value, file: "Scenarios/basic/bad.json")
            Issue.record("a broken scenario parsed")
        } catch {
            #expect(error.problems == [
                "limits.p95Ms: 200.0 is above maxMs 100.0",
                "run.writePath: unknown value \"bluetooth\"; expected one of \"dbus\", \"fd\", \"unconfirmed\", \"requests\"",
                "steps[0].expect.withinMs: expected a number, found a string",
                "steps[0].expect.keys[1]: unknown event code KEY_RIHGT (did you mean KEY_RIGHT?); kernel names such as KEY_RIGHT, BTN_LEFT, REL_X (docs/scenarios.md)",
                "steps[0].expect.keys[2]: REL_X is not a key or button; use motion or frames",
                "steps[1].expect.motion.ABS_X: not a relative axis; expected REL_X, REL_Y, REL_HWHEEL, REL_WHEEL, REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES",
                "steps[1].expect.motion.REL_Y: give tolerance or tolerancePercent, not both",
                "steps[2].expect: expects nothing: give one of keys, frames, motion, absent, phone, status, received, pairing, link (pairing on a pair step, link on a link step)",
                "steps[3].expect.colour: unknown key; allowed here: \(ExpectKeys.all.map { "\"\($0)\"" }.joined(separator: ", "))",
                "steps[3].expect.frames[0]: a frame needs at least one event",
                "steps[3].expect.absent[0]: unknown event type \"EV_FOO\"; expected EV_KEY, EV_REL, EV_ABS, EV_MSC",
            ])
            #expect(error.description.hasPrefix("Scenarios/basic/bad.json: limits.p95Ms"))
        }
    }
}

@Suite("Scenarios: pairing, status and refusal expectations")
struct PairingStatusRefusalTests {
    @Test("pair steps, pairing and status expectations, lockout and uinput settings are read")
    func reads() throws {
        let scenario = try Scenario.parse(try JSONParser().parse(#"""
            {"name": "p", "run": {"pairing": "none", "lockoutSeconds": 2},
             "steps": [
               {"pair": {"code": "wrong"}, "expect": {"pairing": "awaitingCode", "attemptsRemaining": 2, "refused": true}},
               {"pair": {"code": "123456"}},
               {"wait": {"ms": 4500}, "expect": {"status": {"atLeast": 2, "everyMs": 2000, "batteryLevel": 100}, "phone": "active"}}
             ]}
            """#), file: "p.json")
        #expect(scenario.script.steps.first == .pair(.wrong))
        #expect(scenario.script.steps[1] == .pair(.digits("123456")))
        #expect(scenario.expectations.map(\.pairing) == [PairingExpectation(state: .awaitingCode, attemptsRemaining: 2, refused: true), nil, nil])
        #expect(scenario.expectations[2].status == StatusExpectation(atLeast: 2, everyMs: 2000, batteryLevel: 100))
        #expect(scenario.expectations[2].phone == .active)
        #expect(scenario.run.lockoutSeconds == 2)
        #expect(scenario.checkCount == 3)
    }

    @Test("bad pairing, status and refusal parts are reported with their JSON paths")
    func problems() throws {
        let value = try JSONParser().parse(#"""
            {"name": "bad", "run": {"uinput": "denied", "lockoutSeconds": 0},
             "steps": [
               {"pair": {"code": "12345"}},
               {"tap": {}, "expect": {"pairing": "paired"}},
               {"pair": {"code": "shown"}, "expect": {"pairing": "married"}},
               {"wait": {"ms": 10}, "expect": {"status": {"everyMs": 2000}}}
             ]}
            """#)
        do {
            _ = try Scenario.parse(value, file: "Scenarios/bad.json")
            Issue.record("a broken scenario parsed")
        } catch {
            #expect(error.problems == [
                "steps[0].pair.code: expected \"shown\", \"wrong\" or 6 digits, found \"12345\"",
                "run.lockoutSeconds: expected a whole number in 1...3600, found 0",
                "run.uinput: expectRefusal and run.uinput \"denied\" go together: a computer denied uinput must refuse to start (R10), and only then",
                "steps[1].expect.pairing: only a pair step has a pairing expectation; this is a tap step",
                "steps[2].expect.pairing: unknown value \"married\"; expected one of \"idle\", \"awaitingCode\", \"paired\", \"lockedOut\"",
                "steps[3].expect.status: missing required key \"atLeast\"",
            ])
        }
    }

    @Test("offline, an unpaired phone's commands are refused until a pair step pairs it")
    func unpairedOffline() async throws {
        let scenario = try Scenario.parse(try JSONParser().parse(#"""
            {"name": "u", "run": {"pairing": "none"}, "steps": [
              {"tap": {}, "expect": {"absent": true, "forMs": 300}},
              {"pair": {"code": "shown"}, "expect": {"pairing": "paired"}},
              {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}
            ]}
            """#), file: "u.json")
        let replay = await OfflineReplay.run(scenario)
        #expect(replay.errors == [])
        #expect(replay.lines.filter { $0.hasSuffix("refused, the phone is not paired") }.count == 2, "\(replay.lines)")
    }
}

@Suite("Scenarios: what the computer receives (R11.2)")
struct ReceivedExpectationTests {
    @Test("received counts are read, unknown commands reported; offline, an idle phone holds its resync back")
    func idleResync() async throws {
        let text = #"""
            {"name": "idle", "settings": {"idleTimeoutMs": 1000, "idleSendIntervalMs": 9000}, "steps": [
              {"wait": {"ms": 1500}},
              {"linkDrop": {"forMs": 300}},
              {"wait": {"ms": 2000}, "expect": {"received": {"modeChange": 0}}},
              {"wait": {"ms": 6000}, "expect": {"received": {"modeChange": 1}}}
            ]}
            """#
        let scenario = try Scenario.parse(try JSONParser().parse(text), file: "idle.json")
        #expect(scenario.expectations[2].received == ["modeChange": 0])
        #expect(await OfflineReplay.run(scenario).errors == [])
        // The twin expecting the resync at once must fail.
        var twin = scenario
        twin.expectations[2].received = ["modeChange": 1]
        #expect(await OfflineReplay.run(twin).errors.count == 1)
        do {
            _ = try Scenario.parse(try JSONParser().parse(#"{"name": "x", "steps": [{"wait": {"ms": 1}, "expect": {"received": {"teleport": 1}}}]}"#), file: "x.json")
            Issue.record("an unknown command parsed")
        } catch {
            #expect((error as? ScriptError)?.problems.first?.hasPrefix("steps[0].expect.received.teleport: unknown command") == true, "\(error)")
        }
    }
}
