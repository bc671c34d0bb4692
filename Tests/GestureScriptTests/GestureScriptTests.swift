import Foundation
import GestureModel
import GestureScript
import RemoteTouchProtocol
import StrictJSON
import Testing

@Suite("Gesture scripts")
struct GestureScriptTests {
    @Test("steps follow each other on one timeline")
    func timeline() throws {
        let script = try GestureScript.parse(
            try JSONParser().parse(#"{"name":"t","steps":[{"tap":{"durationMs":50}},{"wait":{"ms":400}},{"button":"back"}]}"#),
            file: "t.json")
        #expect(script.inputs().map(\.time) == [.zero, .milliseconds(50), .milliseconds(450)])
        #expect(script.duration() == .milliseconds(450))
    }

    @Test("settings are read, with shortened timers")
    func settings() throws {
        let script = try GestureScript.parse(
            try JSONParser().parse(#"""
                {"name":"s","settings":{"mode":"presentation","sensitivity":2.5,"acceleration":"heavy","idleTimeoutMs":2000},
                 "steps":[{"wait":{"ms":1}}]}
                """#),
            file: "s.json")
        #expect(script.settings.mode == .presentation)
        #expect(script.settings.sensitivity.value == 2.5)
        #expect(script.settings.acceleration == .heavy)
        #expect(script.settings.idleTimeout == .seconds(2))
    }

    @Test("every problem is reported with the file and its JSON path")
    func problems() throws {
        let text = #"""
            {"name": 5, "extra": true,
             "settings": {"sensitivity": 0.4, "mode": "turbo"},
             "steps": [
               {"swipe": {"to": [1, "a"], "durationMs": 100}},
               {"tapp": {}},
               {"wait": {"ms": -1}},
               {"tap": {}, "wait": {"ms": 1}},
               {"touches": [{"atMs": 0, "points": [[1, 2]]}]},
               {"key": {"key": "c", "modifiers": ["hyper"]}},
               {"threeFingerSwipe": {"direction": "diagonal"}}
             ]}
            """#
        let value = try JSONParser().parse(text)
        do {
            _ = try GestureScript.parse(value, file: "Scenarios/bad.json")
            Issue.record("a broken script parsed")
        } catch {
            #expect(error.problems == [
                "extra: unknown key; allowed here: \"$schema\", \"name\", \"description\", \"requirements\", \"settings\", \"steps\"",
                "name: expected a string, found a number",
                "settings.mode: unknown value \"turbo\"; expected one of \"presentation\", \"mediaControl\", \"basicMouse\"",
                "settings.sensitivity: sensitivity 0.4 is outside 0.5...3.0 (R8.1)",
                "steps[0].swipe.to[1]: expected a number, found a string",
                "steps[1].tapp: unknown step (did you mean \"tap\"?); expected one of \(ScriptStep.names.joined(separator: ", "))",
                "steps[2].wait.ms: -1 ms is outside [0...600000]",
                "steps[3]: a step is an object with exactly one key, the step kind (one of \(ScriptStep.names.joined(separator: ", "))); found 2 keys",
                "steps[5].key.modifiers[0]: unknown value \"hyper\"; expected one of \"command\", \"option\", \"control\", \"shift\"",
                "steps[6].threeFingerSwipe.direction: unknown value \"diagonal\"; expected one of \"up\", \"down\", \"left\", \"right\"",
                "steps[4].touches: the script ends with fingers down: the last sample of this or a later touches step must lift every finger (points: [])",
            ])
            #expect(error.description.hasPrefix("Scenarios/bad.json: extra: unknown key"))
        }
    }

    @Test("a touch held across steps: only steps that do not touch the screen until a touches step lifts it")
    func heldTouch() throws {
        func problems(_ steps: String) throws -> [String] {
            let value = try JSONParser().parse(#"{"name": "held", "steps": ["# + steps + "]}")
            do {
                _ = try GestureScript.parse(value, file: "held.json")
                return []
            } catch {
                return error.problems
            }
        }
        let down = #"{"touches": [{"atMs": 0, "points": [[100, 300]]}, {"atMs": 700, "points": [[140, 300]]}]}"#
        let lift = #"{"touches": [{"atMs": 0, "points": [[140, 300]]}, {"atMs": 20, "points": []}]}"#
        // Held through a link drop, a wait and a key, then lifted: fine.
        #expect(try problems([down, #"{"linkDrop": {"forMs": 2000}}"#, #"{"wait": {"ms": 10}}"#,
                              #"{"key": {"key": "a"}}"#, lift, #"{"tap": {}}"#].joined(separator: ",")) == [])
        // A swipe while the finger is still down, and a script that ends with it down.
        #expect(try problems([down, #"{"swipe": {"to": [1, 2], "durationMs": 100}}"#].joined(separator: ",")) == [
            "steps[1].swipe: fingers are still down from steps[0] (its last sample has points); lift them with a touches step before a swipe",
            "steps[0].touches: the script ends with fingers down: the last sample of this or a later touches step must lift every finger (points: [])",
        ])
        // A later touches step that keeps them down moves the blame to it.
        #expect(try problems([down, down].joined(separator: ",")) == [
            "steps[1].touches: the script ends with fingers down: the last sample of this or a later touches step must lift every finger (points: [])",
        ])
    }

    @Test("a file that is not JSON, or missing, is reported with its name")
    func unreadable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hil-script-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.json")
        try Data(#"{"name": "x", "steps": [}"#.utf8).write(to: broken)
        // As every other problem, file:line:column: message.
        #expect(throws: ScriptError.self) { try GestureScript.load(contentsOf: broken.path) }
        do {
            _ = try GestureScript.load(contentsOf: broken.path)
        } catch {
            #expect(error.code == .invalidJSON)
            #expect(error.description == "\(broken.path):1:25: not valid JSON: unexpected '}'; expected a value")
        }
        do {
            _ = try GestureScript.load(contentsOf: folder.appendingPathComponent("missing.json").path)
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.problems.first == "cannot read it: No such file or directory (errno 2)", "\(error.problems)")
        }
    }

    @Test("a raw touch trace becomes inputs at its times")
    func rawTouches() throws {
        let script = try GestureScript.parse(
            try JSONParser().parse(#"""
                {"name":"raw","steps":[{"wait":{"ms":10}},{"touches":[
                  {"atMs":0,"points":[[100,100],[140,100]]},{"atMs":40,"points":[]}]}]}
                """#),
            file: "raw.json")
        let inputs = script.inputs()
        #expect(inputs.map(\.time) == [.milliseconds(10), .milliseconds(50)])
        #expect(inputs.first?.input == .touches([TouchPoint(id: 0, x: 100, y: 100), TouchPoint(id: 1, x: 140, y: 100)]))
        #expect(GestureProcessor.process(inputs, settings: script.settings).compactMap(\.command) == [.rightClick])
    }
}
