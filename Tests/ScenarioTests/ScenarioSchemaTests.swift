import Foundation
import HILTestSupport
import InputCodes
import Processes
import RemoteTouchProtocol
import StrictJSON
import Testing

@Suite("Scenario JSON Schema")
struct ScenarioSchemaTests {
    /// Validates documents against Scenarios/scenario.schema.json with Debian's python3-jsonschema (a real
    /// Draft 2020-12 validator); prints one line per document: `ok` or its errors.
    private func validate(_ documents: [String: String]) async throws -> [String: String] {
        let python = "/usr/bin/python3"
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            for name, text in json.load(sys.stdin).items():
                errors = sorted(e.message for e in validator.iter_errors(json.loads(text)))
                print(name + "\\t" + ("ok" if not errors else "; ".join(errors)))
            """
        let run = try await ChildProcess.run(
            python, arguments: ["-c", script, packageRoot.appendingPathComponent("Scenarios/scenario.schema.json").path],
            input: Array(try JSONSerialization.data(withJSONObject: documents)), errors: .joined, timeout: .seconds(120))
        let text = run.standardOutput
        guard run.succeeded else {
            throw SchemaCheckError(description: "python3 jsonschema failed (run `bash Rigs/setup.sh`, which installs python3-jsonschema):\n\(text)")
        }
        var results: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            if parts.count == 2 { results[parts[0]] = parts[1] }
        }
        return results
    }

    struct SchemaCheckError: Error, CustomStringConvertible { var description: String }

    @Test("the schema is valid Draft 2020-12 and every shipped scenario conforms to it")
    func shippedConform() async throws {
        var documents: [String: String] = [:]
        for file in shippedScenarios() { documents[file] = try String(contentsOfFile: file, encoding: .utf8) }
        let results = try await validate(documents)
        #expect(results.count == documents.count)
        for (file, verdict) in results { #expect(verdict == "ok", "\(file): \(verdict)") }
    }

    @Test("the schema rejects what hil validate rejects: unknown steps, keys, event strings, two actions in a step")
    func rejects() async throws {
        let results = try await validate([
            "unknown step": #"{"name": "x", "steps": [{"tapp": {}}]}"#,
            "bad event": #"{"name": "x", "steps": [{"tap": {}, "expect": {"keys": ["KEY_RIGHT"]}}]}"#,
            "two actions": #"{"name": "x", "steps": [{"tap": {}, "button": "back"}]}"#,
            "unknown setting": #"{"name": "x", "settings": {"speed": 2}, "steps": [{"wait": {"ms": 1}}]}"#,
            "empty expect": #"{"name": "x", "steps": [{"tap": {}, "expect": {"withinMs": 10}}]}"#,
            "no steps": #"{"name": "x", "steps": []}"#,
            "disconnect expecting a reconnect": #"{"name": "x", "steps": [{"disconnect": {}, "expect": {"link": "reconnected"}}]}"#,
            "link step with a motion expectation": #"{"name": "x", "steps": [{"reconnect": {}, "expect": {"absent": true}}]}"#,
            "restart with attempts": #"{"name": "x", "steps": [{"restartBluetoothd": {}, "expect": {"link": "reconnected", "attemptsAtMost": 1}}]}"#,
            "drop of an unknown side": #"{"name": "x", "steps": [{"linkDrop": {"forMs": 10, "adapter": "both"}}]}"#,
        ])
        #expect(results.count == 10)
        for (name, verdict) in results { #expect(verdict != "ok", "the schema accepted \(name)") }
    }

    @Test("the schema takes a send step (what hil record writes) and refuses an item with two payloads or a short report")
    func sendStep() async throws {
        let results = try await validate([
            "send": #"{"name": "x", "run": {"transports": ["hid"]}, "steps": [{"send": [{"atMs": 0, "command": {"rightClick": {}}}, {"atMs": 1.5, "report": "010a00000000"}], "expect": {"keys": ["BTN_RIGHT 1", "BTN_RIGHT 0"]}}, {"wait": {"ms": 500}}]}"#,
            "two payloads": #"{"name": "x", "steps": [{"send": [{"atMs": 0, "command": {"rightClick": {}}, "report": "010a00000000"}]}]}"#,
            "short report": #"{"name": "x", "steps": [{"send": [{"atMs": 0, "report": "010a"}]}]}"#,
            "control packet": #"{"name": "x", "steps": [{"send": [{"atMs": 0, "packet": "bb00000000"}]}]}"#,
        ])
        #expect(results["send"] == "ok")
        for name in ["two payloads", "short report", "control packet"] { #expect(results[name] != "ok", "the schema accepted \(name)") }
    }

    @Test("the schema takes a top-level $schema string, so an editor can be pointed at it")
    func schemaKey() async throws {
        let results = try await validate([
            "with $schema": #"{"$schema": "../scenario.schema.json", "name": "x", "steps": [{"tap": {}, "expect": {"absent": true}}]}"#,
            "a number": #"{"$schema": 3, "name": "x", "steps": [{"tap": {}, "expect": {"absent": true}}]}"#,
        ])
        #expect(results["with $schema"] == "ok")
        #expect(results["a number"] != "ok")
    }

    @Test("the schema refuses what hil refuses: names hil does not know, a button in motion, empty expectations")
    func refusesUnknownNamesAndEmpties() async throws {
        let step = { (expect: String) in #"{"name": "x", "steps": [{"tap": {}, "expect": "# + expect + "}]}" }
        let results = try await validate([
            "KEY_LEFTARROW": step(#"{"keys": ["KEY_LEFTARROW 1"]}"#),
            "a motion axis in keys": step(#"{"keys": ["REL_X 1"]}"#),
            "an unknown code in frames": step(#"{"frames": [["KEY_FOO 1"]]}"#),
            "empty motion": step(#"{"motion": {}}"#),
            "empty frames": step(#"{"frames": []}"#),
            "empty absent": step(#"{"absent": []}"#),
            "empty expectDevices": #"{"name": "x", "expectDevices": {}, "steps": [{"tap": {}, "expect": {"absent": true}}]}"#,
            "known names": step(#"{"keys": ["KEY_LEFT 1", "BTN_LEFT 0"], "frames": [["REL_WHEEL_HI_RES 120", "SYN_REPORT 0"]]}"#),
        ])
        #expect(results.count == 8)
        #expect(results["known names"] == "ok")
        for (name, verdict) in results where name != "known names" { #expect(verdict != "ok", "the schema accepted \(name)") }
    }

    /// The schema's lists of names are the code's: a name added to `EventCode`'s table, or a command, fails here
    /// until the schema says the same (the message gives the text to paste).
    @Test("the schema's event, key, axis and command names are exactly the ones hil accepts")
    func namesMatchTheCode() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Scenarios/scenario.schema.json"), encoding: .utf8)
        let schema = try JSONParser().parse(text)
        func at(_ keys: String...) throws -> JSONValue {
            var value = schema
            for key in keys { value = try #require(try value.object(at: .root)[key], "no \(key) in the schema") }
            return value
        }
        let names = EventCode.allKnown.compactMap(\.name)
        let keyNames = EventCode.allKnown.filter { $0.type == .key }.compactMap(\.name)
        let event = "^(" + names.joined(separator: "|") + ") -?[0-9]+$"
        let keyEvent = "^(" + keyNames.joined(separator: "|") + ") -?[0-9]+$"
        #expect(try at("$defs", "event", "pattern") == .string(event), "set $defs.event.pattern to \(event)")
        #expect(try at("$defs", "keyEvent", "pattern") == .string(keyEvent), "set $defs.keyEvent.pattern to \(keyEvent)")
        let axes = EventCode.allKnown.filter { $0.type == .rel }.compactMap(\.name)
        #expect(try at("$defs", "expect", "properties", "motion", "propertyNames", "enum") == .array(axes.map { .string($0) }))
        let received = Command.caseNames + ["hidReport", "udpPacket", "refused"]
        #expect(try at("$defs", "expect", "properties", "received", "propertyNames", "enum") == .array(received.map { .string($0) }))
    }
}

