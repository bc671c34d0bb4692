import Foundation
import Scenario
import StrictJSON
import Testing

/// The problems of a scenario written as `text`, or [] when it loads.
private func problems(_ text: String) throws -> [String] {
    let value = try JSONParser().parse(text)
    do {
        _ = try Scenario.parse(value, file: "s.json")
        return []
    } catch {
        return error.problems
    }
}

@Suite("hil validate: what it says of a scenario, and where")
struct ValidationTests {
    @Test("an unknown key in expect lists every key the readers take, suggests the one meant, and adds nothing false")
    func unknownExpectKey() throws {
        let found = try problems(#"{"name": "n", "steps": [{"wait": {"ms": 10}, "expect": {"phon": "idle"}}]}"#)
        let allowed = ExpectKeys.all.map { "\"\($0)\"" }.joined(separator: ", ")
        #expect(found == [#"steps[0].expect.phon: unknown key (did you mean "phone"?); allowed here: "# + allowed], "\(found)")
        for key in ["phone", "status", "received", "link", "pairing", "keys", "motion", "servingWithinMs"] {
            #expect(ExpectKeys.all.contains(key), "the hint leaves out \(key)")
        }
    }

    @Test("a run or limits key written at the top is told where it goes")
    func nestedKeyAtTheTop() throws {
        let found = try problems(#"{"name": "n", "transports": ["ble"], "p95Ms": 40, "steps": [{"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}]}"#)
        #expect(found.contains(#"transports: unknown key at the top (did you mean "run.transports"? it goes inside "run")"#), "\(found)")
        #expect(found.contains(#"p95Ms: unknown key at the top (did you mean "limits.p95Ms"? it goes inside "limits")"#), "\(found)")
    }

    /// The hint cannot drift from the readers: every key it lists is taken by some step's expect.
    @Test("every key the hint lists is read, on the step kind that takes it", arguments: ExpectKeys.all)
    func hintedKeyIsRead(key: String) throws {
        let values: [String: String] = [
            "keys": #"["BTN_LEFT 1"]"#, "frames": #"[["BTN_LEFT 1"]]"#, "motion": #"{"REL_X": 1}"#, "absent": "true",
            "phone": #""idle""#, "status": #"{"atLeast": 1}"#, "received": #"{"tap": 1}"#, "pairing": #""paired""#,
            "link": #""reconnected""#,
        ]
        let steps = [#"{"tap": {}}"#, #"{"pair": {"code": "shown"}}"#, #"{"linkDrop": {"forMs": 10}}"#, #"{"restartBluetoothd": {}}"#]
        var unknownEverywhere = true
        for step in steps {
            let value = values[key] ?? (["allowRepeat", "nothingElse", "refused"].contains(key) ? "true" : "1")
            let context = key == "link" || values[key] != nil ? "" : (["attemptsAtMost", "servingWithinMs"].contains(key)
                ? #", "link": "reconnected""# : ["attemptsRemaining", "refused"].contains(key) ? #", "pairing": "paired""# : #", "absent": true"#)
            let text = #"{"name": "n", "run": {"pairing": "none"}, "steps": ["# + String(step.dropLast())
                + #", "expect": {""# + key + #"": "# + value + context + "}}]}"
            if !(try problems(text)).contains(where: { $0.contains("expect.\(key): unknown key") }) { unknownEverywhere = false }
        }
        #expect(!unknownEverywhere, "\(key) is listed as allowed but no step's expect takes it")
    }

    @Test("an empty expectation is refused, whatever its kind: it would check nothing", arguments: [
        (#"{"keys": []}"#, "steps[0].expect.keys: an empty key list expects nothing"),
        (#"{"frames": []}"#, "steps[0].expect.frames: an empty frame list expects nothing"),
        (#"{"motion": {}}"#, "steps[0].expect.motion: an empty motion expects nothing"),
        (#"{"absent": []}"#, "steps[0].expect.absent: an empty absent expects nothing"),
        (#"{"received": {}}"#, "steps[0].expect.received: an empty received expects nothing"),
        (#"{}"#, "steps[0].expect: expects nothing"),
    ])
    func emptyExpectations(expect: String, problem: String) throws {
        let found = try problems(#"{"name": "n", "steps": [{"tap": {}, "expect": "# + expect + "}]}")
        #expect(found.count == 1 && found[0].hasPrefix(problem), "\(found)")
    }

    @Test("an empty expectDevices or expectRefusal is refused too")
    func emptyTopLevel() throws {
        #expect(try problems(#"{"name": "n", "expectDevices": {}, "steps": [{"tap": {}}]}"#).first?
            .hasPrefix("expectDevices: an empty expectDevices expects nothing") == true)
        #expect(try problems(#"{"name": "n", "run": {"uinput": "denied"}, "expectRefusal": [], "steps": [{"tap": {}}]}"#).first?
            .hasPrefix("expectRefusal: an empty expectRefusal names nothing") == true)
    }

    @Test("a scenario that checks nothing is a problem for validate; one check is enough")
    func checksNothing() throws {
        let bare = try Scenario.parse(try JSONParser().parse(#"{"name": "n", "steps": [{"tap": {}}]}"#), file: "s.json")
        #expect(bare.checksNothingProblem?.text.hasPrefix("(document): checks nothing") == true)
        let checked = try Scenario.parse(
            try JSONParser().parse(#"{"name": "n", "steps": [{"tap": {}, "expect": {"absent": true}}]}"#), file: "s.json")
        #expect(checked.checksNothingProblem == nil)
    }

    @Test("a top-level $schema string is taken (editors point at the schema with it); another type is not")
    func schemaKey() throws {
        let text = #"{"$schema": "../scenario.schema.json", "name": "n", "steps": [{"tap": {}, "expect": {"absent": true}}]}"#
        #expect(try problems(text) == [])
        #expect(try problems(text.replacingOccurrences(of: #""../scenario.schema.json""#, with: "3"))
            == [#"["$schema"]: expected a string, found a number"#])
    }

    @Test("problems of a file name its line and column, in file order, with a did-you-mean for names")
    func locatedProblems() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("located-\(getpid()).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try """
            {
              "name": "n",
              "settings": { "mode": "presentaton" },
              "steps": [
                { "tap": {}, "expect": { "keys": ["KEY_LEFTARROW 1"] } },
                { "tapp": {} }
              ]
            }
            """.write(toFile: file, atomically: true, encoding: .utf8)
        do {
            _ = try Scenario.load(contentsOf: file)
            Issue.record("the scenario loaded")
        } catch {
            // The script's problems are found before the scenario's expectations': sorted back into file order.
            #expect(error.located.map(\.location) == [
                JSONLocation(line: 3, column: 17), JSONLocation(line: 5, column: 39), JSONLocation(line: 6, column: 7),
            ])
            let lines = error.description.split(separator: "\n").map(String.init)
            try #require(lines.count == 3, "\(lines)")
            #expect(lines.first?.hasPrefix(#"\#(file):3:17: settings.mode: unknown value "presentaton" (did you mean "presentation"?)"#) == true, "\(lines)")
            #expect(lines[1].hasPrefix("\(file):5:39: steps[0].expect.keys[0]: unknown event code KEY_LEFTARROW (did you mean KEY_LEFT?)"), "\(lines)")
            #expect(lines.last?.hasPrefix(#"\#(file):6:7: steps[1].tapp: unknown step (did you mean "tap"?)"#) == true, "\(lines)")
        }
    }
}
