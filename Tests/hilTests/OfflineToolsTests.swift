import Foundation
import HILTestSupport
import Testing

/// A scratch folder that is removed when the test ends.
func scratchFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hil-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
}

/// The built `hil`'s offline tools (validate, replay, decode) as a person or a CI job runs them.
@Suite("hil's offline tools: no ok for what was not judged, the same answer in any order, every wire format")
struct OfflineToolsTests {
    static let lockout = packageRoot.appendingPathComponent("Scenarios-nightly/pairing/lockout-after-three-wrong-codes.json").path
    static let refusal = packageRoot.appendingPathComponent("Scenarios/permissions/uinput-denied-refuses-to-start.json").path
    static let good = packageRoot.appendingPathComponent("Scenarios-nightly/buttons/basic-mouse-mode.json").path

    @Test("replay: a scenario none of whose checks it can judge is 'not judged', names them, and exits 2")
    func notJudged() async throws {
        let run = try await runSeparating(try RigGuest.hilBinary(), ["replay", Self.lockout, Self.refusal])
        #expect(run.status == 2, "\(run.output)\(run.errors)")
        #expect(run.output.contains("[1/2] not judged \(Self.lockout)"), "\(run.output)")
        #expect(run.output.contains("5 check(s) need a rig, not judged"), "\(run.output)")
        #expect(run.output.contains("needs a rig, not judged: steps[0].expect.pairing"), "\(run.output)")
        #expect(run.output.contains("[2/2] not judged \(Self.refusal)"), "\(run.output)")
        #expect(!run.output.contains(" ok "), "\(run.output)")
        #expect(!run.output.contains("BTN_LEFT"), "the computer that must refuse to start injected: \(run.output)")
        // With one scenario it could judge, the run is ok (exit 0) and still counts the ones it could not.
        let mixed = try await runSeparating(try RigGuest.hilBinary(), ["replay", "-q", Self.good, Self.lockout])
        #expect(mixed.status == 0, "\(mixed.errors)")
        #expect(mixed.output.hasSuffix("1 ok, 1 not judged (their checks need a rig: hil run)\n"), "\(mixed.output)")
    }

    /// Issue 54 item 3, each case through the built commands: the file, its line and column, and the JSON path.
    static let infeasibleCases: [(run: String, steps: String, path: String)] = [
        ("{}", #"{"linkDrop": {"forMs": 1000}, "expect": {"link": "stayedUp"}}"#, "steps[0].expect.link: a linkDrop step takes the link down"),
        (#"{"transports": ["tcp"]}"#, #"{"partition": {"forMs": 1000}, "expect": {"link": "stayedUp"}}"#, "steps[0].expect.link: a partition step takes the link down"),
        ("{}", #"{"disconnect": {}}, {"reconnect": {}, "expect": {"link": "stayedUp"}}"#, "steps[1].expect.link: a reconnect step takes the link down"),
        ("{}", #"{"restartPeripheral": {}, "expect": {"link": "stayedUp"}}"#, "steps[0].expect.link: a restartPeripheral step takes the link down"),
        (#"{"transports": ["ble", "hid"]}"#, #"{"radio": {"blackoutMs": 3000}, "expect": {"link": "stayedUp"}}"#, "steps[0].expect.link: a blackout of 3000.0 ms is longer than"),
        (#"{"transports": ["ble", "hid"]}"#, #"{"radio": {"blackoutMs": 800}, "expect": {"link": "reconnected"}}"#, "steps[0].expect.link: a blackout of 800.0 ms is shorter than"),
        ("{}", #"{"linkDrop": {"forMs": 0}, "expect": {"link": "reconnected"}}"#, "steps[0].linkDrop.forMs: an outage of 0 ms takes nothing down"),
        (#"{"transport": "tcp", "transports": ["tcp"]}"#, #"{"radio": {"packetErrorPercent": 10}}"#, "steps[0].radio: a radio step (the vm rig's emulated radio) runs on ble and hid only"),
        (#"{"transports": ["ble"]}"#, #"{"network": {"delayMs": 20}}"#, "steps[0].network: a network step (netem between the hosts) runs on tcp and udp only"),
        ("{}", #"{"text": "café", "expect": {"keys": ["KEY_C 1"]}}"#, #"steps[0].text: character 3 "é" (U+E9) cannot be typed on a US layout"#),
    ]

    @Test("validate and replay refuse a scenario no rig could pass, with the file, its line and column, and the JSON path",
          arguments: 0..<infeasibleCases.count)
    func infeasible(_ index: Int) async throws {
        let folder = try scratchFolder("infeasible-\(index)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("infeasible.json")
        let (run, steps, path) = Self.infeasibleCases[index]
        try write(#"{"name": "n", "run": "# + run + #", "steps": ["# + steps + "]}", to: file)
        for command in ["validate", "replay"] {
            let result = try await runSeparating(try RigGuest.hilBinary(), [command, file.path])
            let text = result.output + result.errors
            #expect(result.status == 64, "\(command): \(text)")
            #expect(text.range(of: #"\#(file.path):1:\d+: "#, options: .regularExpression) != nil && text.contains(path),
                    "\(command) does not name \(path): \(text)")
        }
    }

    @Test("replay -q: exactly one line per script, a failing or invalid one on standard error with its first problem")
    func quietOneLine() async throws {
        let folder = try scratchFolder("quiet")
        defer { try? FileManager.default.removeItem(at: folder) }
        let failing = folder.appendingPathComponent("fail.json")
        try write(#"{"name": "f", "steps": [{"tap": {}, "expect": {"keys": ["BTN_RIGHT 1", "BTN_RIGHT 0"]}}]}"#, to: failing)
        let invalid = folder.appendingPathComponent("invalid.json")
        try write(#"{"name": 3, "steps": []}"#, to: invalid)
        let run = try await runSeparating(try RigGuest.hilBinary(), ["replay", "-q", Self.good, failing.path, invalid.path])
        #expect(run.status == 64, "an invalid file outranks a failed replay")
        let out = run.output.split(separator: "\n"), err = run.errors.split(separator: "\n")
        #expect(out.count == 2 && out[0].hasPrefix("[1/3] ok "), "\(run.output)")
        #expect(err.count == 2, "one line per failing script, not its whole message: \(run.errors)")
        // The cause, not the verifier's "not met within", which offline (no latency) reads as timing.
        #expect(err.first?.hasPrefix("[2/3] ERROR \(failing.path) — f: steps[0] (tap) expectation does not hold offline: key event 1: expected BTN_RIGHT 1, got BTN_LEFT 1") == true, "\(run.errors)")
        #expect(err.last?.hasPrefix("[3/3] INVALID \(invalid.path):1:") == true && err.last?.contains("(+1 more problem(s))") == true, "\(run.errors)")
    }

    @Test("validate checks each file's ids against the catalog above that file, so the order of paths does not matter")
    func catalogPerFile() async throws {
        let folder = try scratchFolder("catalog")
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(#"{"requirements": [{"id": "R1.1", "text": "x"}]}"#, to: folder.appendingPathComponent("suite/requirements.json"))
        let inSuite = folder.appendingPathComponent("suite/a.json")
        try write(#"{"name": "a", "requirements": ["R99.9"], "steps": [{"tap": {}, "expect": {"absent": true}}]}"#, to: inSuite)
        let outside = folder.appendingPathComponent("loose/b.json")
        try write(#"{"name": "b", "requirements": ["R5"], "steps": [{"tap": {}, "expect": {"absent": true}}]}"#, to: outside)
        let forward = try await runSeparating(try RigGuest.hilBinary(), ["validate", inSuite.path, outside.path])
        let backward = try await runSeparating(try RigGuest.hilBinary(), ["validate", outside.path, inSuite.path])
        for run in [forward, backward] {
            #expect(run.status == 64)
            #expect(run.errors.contains("\(inSuite.path):1:"), "\(run.errors)")
            #expect(run.errors.contains("requirements[0]: R99.9 is not in"), "\(run.errors)")
            #expect(!run.errors.contains("R5"), "a file with no catalog above it has no ids to check: \(run.errors)")
        }
    }

    @Test("validate run from another folder names the folder it looked in and says to pass a path, without the usage")
    func defaultPathElsewhere() async throws {
        let folder = try scratchFolder("elsewhere")
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in ["validate", "replay"] {
            let run = try await runSeparating(try RigGuest.hilBinary(), [command], in: folder)
            #expect(run.status == 64)
            #expect(run.errors.contains("hil \(command): Scenarios: no such file or folder in \(folder.path)"), "\(run.errors)")
            #expect(run.errors.contains("pass the scenario files or folders"), "\(run.errors)")
            #expect(!run.errors.contains("Usage:"), "\(run.errors)")
        }
    }

    @Test("validate: a scenario that checks nothing is a problem, at line 1 column 1")
    func checksNothing() async throws {
        let folder = try scratchFolder("nothing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bare.json")
        try write(#"{"name": "b", "steps": [{"tap": {}}]}"#, to: file)
        let run = try await runSeparating(try RigGuest.hilBinary(), ["validate", file.path])
        #expect(run.status == 64)
        #expect(run.errors.hasPrefix("\(file.path):1:1: (document): checks nothing"), "\(run.errors)")
    }

    @Test("decode: a HID report, a UDP packet and TCP frames as well as JSON; --format forces one", arguments: [
        (["010a00000000"], "HID report", "[BTN_LEFT 1, REL_X 10]"),
        (["aa000afb00"], "UDP packet", "[REL_X 10, REL_Y -5]"),
        (["0000001d7b2274797065223a2270696e67222c2274696d657374616d70223a317d"], "TCP frame", "{\"type\":\"ping\",\"timestamp\":1}"),
        (["--format", "tcp", #"{"type":"mouseMove","timestamp":1,"dx":3,"dy":-1}"#], "TCP frame", "[REL_X 3, REL_Y -1]"),
        ([#"{"button":{"action":"back"}}"#, "--mode", "presentation"], "JSON command", "[KEY_LEFT 1]"),
        (["--hex", "7b22746170223a7b2274797065223a22646f75626c65227d7d"], "JSON command", "[BTN_LEFT 1]"),
    ])
    func decodes(arguments: [String], format: String, shown: String) async throws {
        let run = try await runSeparating(try RigGuest.hilBinary(), ["decode"] + arguments)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.hasPrefix(format), "\(run.output)")
        #expect(run.output.contains(shown), "\(run.output)")
    }

    @Test("decode: what no format takes is refused with each format's reason; a forced format gives only its own")
    func decodeRefusals() async throws {
        let run = try await runSeparating(try RigGuest.hilBinary(), ["decode", "bb000afb00"])
        #expect(run.status == 64)
        for reason in ["json: command payload: not valid JSON", "hid: HID report payload: expected 6 bytes, found 5",
                       "udp: UDP packet payload: 0xBB control packets are not taken over UDP",
                       "tcp: TCP frame payload: the 4-byte big-endian length header announces"] {
            #expect(run.errors.contains(reason), "\(run.errors)")
        }
        let forced = try await runSeparating(try RigGuest.hilBinary(), ["decode", "--format", "udp", "010a00000000"])
        #expect(forced.status == 64)
        #expect(forced.errors == "refused: UDP packet payload: expected 5 bytes, found 6\n", "\(forced.errors)")
    }
}
