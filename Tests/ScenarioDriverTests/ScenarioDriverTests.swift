import Scenario
import ScenarioDriver
import StrictJSON
import Testing
import Verifier
import Records
import InputCodes

/// The driver against fake links and the in-process computer, in virtual time: no rig, no BlueZ.
@Suite("Scenario driver with fake links")
struct ScenarioDriverTests {
    struct Run {
        var drive: ScenarioDriver.Drive
        var steps: [StepResult]
        var link: FakeLink
        var computer: OfflineComputer
        var scenario: Scenario

        var outcome: ScenarioResult.Outcome {
            var findings = drive.findings(heldAtEnd: [], droppedEvents: false, scenario: scenario, options: .init()).findings
            findings.steps = steps.map(\.outcome)
            return Judge.outcome(findings)
        }
    }

    static func run(_ json: String, reconnectsToFail: Int = 0, swapPairs: Bool = false, lockout: Duration = .seconds(300),
                    options: ScenarioDriver.Options = .init(),
                    reader: (any ComputerUnderTest) -> any ComputerUnderTest = { $0 }) async throws -> Run
    {
        let scenario = try Scenario.parse(try JSONParser().parse(json), file: "test.json")
        let clock = VirtualClock()
        let computer = OfflineComputer(clock: clock, lockout: lockout)
        let link = FakeLink(computer: computer, clock: clock, reconnectsToFail: reconnectsToFail, swapPairs: swapPairs)
        let seen = reader(FlushingComputer(computer, link: link))
        var options = options
        options.judged.subtract([.status])
        let drive = try await ScenarioDriver(scenario: scenario, phone: link, computer: seen, clock: clock, options: options).run()
        let steps = drive.judged(receipts: computer.receipts(), frames: nil, scenario: scenario, options: options).steps
        return Run(drive: drive, steps: steps, link: link, computer: computer, scenario: scenario)
    }

    @Test("a failed tap's window on the timeline covers its send, 300 ms after the touch, and the frames it was judged by")
    func tapWindowCoversItsJudging() async throws {
        let run = try await Self.run(#"{"name": "t", "steps": [{"tap": {}, "expect": {"keys": ["BTN_RIGHT 1", "BTN_RIGHT 0"]}}]}"#)
        #expect(run.steps.map(\.outcome) == [.failed])
        let send = try #require(run.drive.sends.first?.at)
        let frames = run.computer.frames(since: MonotonicTime(nanoseconds: 0)).map(\.time.nanoseconds)
        #expect(!frames.isEmpty)
        // The step's inputs end with the touch; its command leaves later, when its segment is judged.
        #expect(try #require(run.drive.windows[0]).end.nanoseconds < send, "the case this is about")
        let shown = try #require(run.drive.shownWindows[0])
        #expect(shown.contains(send), "the send at \(send) is outside \(shown)")
        for frame in frames { #expect(shown.contains(frame), "a frame at \(frame) is outside \(shown)") }
    }

    @Test("a drop mid-drag: the computer lets go of the button, the phone reconnects, the next swipe moves")
    func dropMidDrag() async throws {
        let run = try await Self.run(#"""
            {"name": "mid-drag", "settings": {"acceleration": "none"}, "run": {"reconnectIntervalMs": 500},
             "steps": [
              {"touches": [{"atMs": 0, "points": [[100, 300]]}, {"atMs": 600, "points": [[100, 300]]},
                           {"atMs": 700, "points": [[130, 300]]}],
               "expect": {"keys": ["BTN_LEFT 1"], "motion": {"REL_X": {"total": 30, "tolerance": 6}}}},
              {"linkDrop": {"forMs": 1200}, "expect": {"link": "reconnected", "attemptsAtMost": 3}},
              {"touches": [{"atMs": 0, "points": [[130, 300]]}, {"atMs": 20, "points": []}], "expect": {"absent": true, "forMs": 300}},
              {"swipe": {"from": [100, 300], "to": [160, 300], "durationMs": 150}, "expect": {"motion": {"REL_X": {"total": 60, "tolerance": 3}}}}
            ]}
            """#)
        #expect(run.steps.map(\.outcome) == [.passed, .passed, .passed, .passed], "\(run.steps.map(\.message))")
        #expect(run.steps[1].message.contains("BTN_LEFT held when the link went down, released within"), "\(run.steps[1].message)")
        #expect(run.steps[1].message.contains("3 tries every 500.0 ms, phone shows connected"), "\(run.steps[1].message)")
        #expect(run.computer.heldKeys() == [])
        // The phone told the computer its mode again once the link was back.
        #expect(run.link.sent.filter { $0.contains("modeChange") }.count == 2)
    }

    @Test("a reconnect that fails 10 times: the phone gives up, shows disconnected, and sends nothing after")
    func givesUp() async throws {
        let run = try await Self.run(#"""
            {"name": "gives up", "run": {"reconnectIntervalMs": 100, "maxReconnectAttempts": 10},
             "steps": [
              {"linkDrop": {"forMs": 50}, "expect": {"link": "disconnected", "attemptsAtMost": 10}},
              {"swipe": {"from": [100, 300], "to": [160, 300], "durationMs": 150}, "expect": {"absent": ["EV_REL"], "forMs": 300}}
            ]}
            """#, reconnectsToFail: 100)
        #expect(run.link.reconnectTries == 10)
        #expect(run.steps.map(\.outcome) == [.passed, .passed], "\(run.steps.map(\.message))")
        #expect(run.steps[0].message.contains("10 tries every 100.0 ms, phone shows disconnected"), "\(run.steps[0].message)")
        // The last try's reason comes with the verdict: the evidence when a rig's reconnect goes wrong.
        #expect(run.steps[0].message.contains("; the last try failed: no answer (try 10)"), "\(run.steps[0].message)")
        #expect(run.steps[1].message.contains("command(s) not sent: the link was down"), "\(run.steps[1].message)")
        // Expecting it to reconnect fails, and says why.
        let wrong = try await Self.run(#"""
            {"name": "gives up", "run": {"reconnectIntervalMs": 100, "maxReconnectAttempts": 10},
             "steps": [{"linkDrop": {"forMs": 50}, "expect": {"link": "reconnected"}}]}
            """#, reconnectsToFail: 100)
        #expect(wrong.steps[0].outcome == .failed)
        #expect(wrong.steps[0].message.hasPrefix("the phone shows disconnected, expected connected"))
    }

    @Test("writes delivered out of order: motion still adds up, every command is received, stages still align")
    func reordered() async throws {
        let json = #"""
            {"name": "reordered", "settings": {"acceleration": "none"}, "steps": [
              {"swipe": {"from": [100, 300], "to": [200, 300], "durationMs": 200},
               "expect": {"motion": {"REL_X": {"total": 100, "tolerance": 3}}, "received": {"cursorMove": 12}}},
              {"wait": {"ms": 100}}
            ]}
            """#
        let run = try await Self.run(json, swapPairs: true)
        #expect(run.steps[0].outcome == .passed, "\(run.steps[0].message)")
        let receipts = run.computer.receipts().map(\.payload)
        let moves = run.link.sent.filter { $0.contains("cursorMove") }
        #expect(receipts.filter { $0.contains("cursorMove") } != moves, "the fake link did not reorder")
        #expect(Set(receipts) == Set(run.link.sent))
        #expect(run.steps[0].stagesMs != nil)
        // A twin that expects one command more fails on the received count.
        let twin = try await Self.run(json.replacingOccurrences(of: "\"cursorMove\": 12", with: "\"cursorMove\": 13"), swapPairs: true)
        #expect(twin.steps[0].outcome == .failed)
        #expect(twin.steps[0].message.contains("received 12 cursorMove command(s) during the step, expected 13"), "\(twin.steps[0].message)")
    }

    @Test("--fail-fast: the failed step ends the scenario; what follows is reported not run")
    func failFast() async throws {
        let run = try await Self.run(#"""
            {"name": "fail fast", "steps": [
              {"tap": {}, "expect": {"keys": ["BTN_RIGHT 1", "BTN_RIGHT 0"], "withinMs": 400}},
              {"wait": {"ms": 100}},
              {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "withinMs": 400}},
              {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "withinMs": 400}}
            ]}
            """#, options: .init(failFast: true))
        #expect(run.steps.map(\.outcome) == [.failed, .unchecked, .unchecked, .unchecked])
        #expect(run.steps[3].message == "not run: an earlier step failed (--fail-fast)")
    }

    @Test("an unpaired phone's commands are refused and inject nothing; a wrong code costs an attempt")
    func unpaired() async throws {
        let run = try await Self.run(#"""
            {"name": "unpaired", "run": {"pairing": "none"}, "steps": [
              {"tap": {}, "expect": {"absent": true, "forMs": 400}},
              {"wait": {"ms": 400}, "expect": {"received": {"refused": 1, "tap": 1}}},
              {"pair": {"code": "wrong"}, "expect": {"pairing": "awaitingCode", "attemptsRemaining": 2, "refused": true}},
              {"pair": {"code": "shown"}, "expect": {"pairing": "paired"}},
              {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}
            ]}
            """#)
        #expect(run.steps.map(\.outcome) == [.passed, .passed, .passed, .passed, .passed], "\(run.steps.map(\.message))")
        // The mode sent on connect is no step's send, but the computer received (and refused) it too.
        #expect(run.drive.sends.count + 1 == run.computer.receipts().count)
    }

    /// Three wrong codes, a wait, then the shown code expected refused as locked out.
    static func lockout(seconds: Int, waitMs: Int) -> String {
        #"{"name": "lockout", "run": {"pairing": "none", "lockoutSeconds": \#(seconds)}, "steps": ["#
            + #"{"pair": {"code": "wrong"}, "expect": {"pairing": "awaitingCode", "attemptsRemaining": 2, "refused": true}},"#
            + #"{"pair": {"code": "wrong"}, "expect": {"pairing": "awaitingCode", "attemptsRemaining": 1, "refused": true}},"#
            + #"{"pair": {"code": "wrong"}, "expect": {"pairing": "lockedOut", "attemptsRemaining": 0, "refused": true}},"#
            + #"{"wait": {"ms": \#(waitMs)}},"#
            + #"{"pair": {"code": "shown"}, "expect": {"pairing": "lockedOut", "refused": true}}]}"#
    }

    @Test("a lockout that had run out before the code was sent (a slow rig) is inconclusive, not failed")
    func lockoutRanOut() async throws {
        let run = try await Self.run(Self.lockout(seconds: 2, waitMs: 2500), lockout: .seconds(2))
        #expect(run.steps.map(\.outcome) == [.passed, .passed, .passed, .unchecked, .inconclusive], "\(run.steps.map(\.message))")
        #expect(run.steps[4].message.hasPrefix("inconclusive: the code was sent 2.5 s after the phone learned that pairing was locked"))
        #expect(run.steps[4].message.contains("pairing state paired, expected lockedOut"))
        #expect(run.outcome == .inconclusive)
    }

    @Test("a computer whose lockout ends too early fails: the scenario's lockout had not run out when the code was sent")
    func lockoutTooShort() async throws {
        let run = try await Self.run(Self.lockout(seconds: 10, waitMs: 2500), lockout: .seconds(2))
        #expect(run.steps.map(\.outcome) == [.passed, .passed, .passed, .unchecked, .failed], "\(run.steps.map(\.message))")
        #expect(run.steps[4].message.hasPrefix("pairing state paired, expected lockedOut"))
        #expect(run.outcome == .failed)
        // With the lockout the computer really has, the refusal holds.
        let held = try await Self.run(Self.lockout(seconds: 10, waitMs: 2500), lockout: .seconds(10))
        #expect(held.steps.map(\.outcome) == [.passed, .passed, .passed, .unchecked, .passed], "\(held.steps.map(\.message))")
    }
}
