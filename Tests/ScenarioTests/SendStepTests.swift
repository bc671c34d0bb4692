import GestureScript
import Scenario
import StrictJSON
import Testing

/// The `send` step (docs/scenarios.md): raw writes at their times — commands, hid reports, udp packets — read with
/// the protocol's own decoders, every bad input refused with its JSON path, and reports and packets only on the
/// transport that carries them.
@Suite("The send step: raw commands, hid reports and udp packets at their times")
struct SendStepTests {
    static func parse(_ items: String, run: String = "{}", expect: String = #"{"absent": true, "forMs": 100}"#) throws -> Scenario {
        let text = #"{"name": "n", "run": \#(run), "steps": [{"send": \#(items), "expect": \#(expect)}, {"wait": {"ms": 50}}]}"#
        return try Scenario.parse(try JSONParser().parse(text), file: "s.json")
    }

    @Test("commands, reports and packets are read with their times; the step lasts until its last item")
    func read() throws {
        let commands = try Self.parse(#"[{"atMs": 0, "command": {"modeChange": {"mode": "presentation"}}}, {"atMs": 8.25, "command": {"cursorMove": {"delta": [10, -5]}}}]"#)
        guard case .send(let items) = commands.script.steps[0] else {
            Issue.record("not a send step: \(commands.script.steps[0])")
            return
        }
        #expect(items.map(\.at) == [.zero, .microseconds(8250)])
        #expect(items[1].payload.description == #"{"cursorMove":{"delta":[10,-5]}}"#)
        #expect(commands.script.steps[0].duration() == .microseconds(8250))
        #expect(commands.script.steps[0].inputs(startingAt: .zero).isEmpty, "a send step bypasses the gesture model")
        #expect(commands.expectations[0].events?.absentForMs == 100)

        let reports = try Self.parse(#"[{"atMs": 0, "report": "010A00FBFF01"}, {"atMs": 0, "report": "000000000000"}]"#, run: #"{"transport": "hid", "transports": ["hid"]}"#)
        guard case .send(let hid) = reports.script.steps[0] else { return }
        #expect(hid.map(\.payload.description) == ["hid 010a00fbff01", "hid 000000000000"])
        #expect(hid[0].payload.bytes == [0x01, 0x0a, 0x00, 0xfb, 0xff, 0x01])

        let packets = try Self.parse(#"[{"atMs": 3, "packet": "aa0005fb00"}]"#, run: #"{"transports": ["udp"]}"#)
        guard case .send(let udp) = packets.script.steps[0] else { return }
        #expect(udp[0].payload.description == "udp aa0005fb00")
    }

    @Test("every bad item is refused with its JSON path", arguments: [
        (#"{"atMs": 0}"#, "steps[0].send: expected an array"),
        ("[]", "steps[0].send: a send step needs at least one item"),
        ("[3]", "steps[0].send[0]: expected an object"),
        (#"[{"command": {"rightClick": {}}}]"#, "steps[0].send[0]: missing required key \"atMs\""),
        (#"[{"atMs": -1, "command": {"rightClick": {}}}]"#, "steps[0].send[0].atMs: -1 ms is outside [0...600000]"),
        (#"[{"atMs": 9, "command": {"rightClick": {}}}, {"atMs": 8, "command": {"rightClick": {}}}]"#, "steps[1]"),
        (#"[{"atMs": 0}]"#, "steps[0].send[0]: an item needs one of command, report (hid) or packet (udp)"),
        (#"[{"atMs": 0, "command": {"rightClick": {}}, "report": "000000000000"}]"#, "steps[0].send[0]: an item has exactly one of command, report and packet; found command and report"),
        (#"[{"atMs": 0, "comand": {}}]"#, "steps[0].send[0].comand: unknown key"),
        (#"[{"atMs": 0, "command": {"cursorMov": {"delta": [1, 2]}}}]"#, "steps[0].send[0].command.cursorMov: unknown command"),
        (#"[{"atMs": 0, "command": {"cursorMove": {"delta": [40000, 2]}}}]"#, "steps[0].send[0].command.cursorMove.delta[0]"),
        (#"[{"atMs": 0, "command": {"text": {"string": ""}}}]"#, "steps[0].send[0].command"),
        (#"[{"atMs": 0, "report": "0100"}]"#, "steps[0].send[0].report: \"0100\" is not a 6-byte HID report: expected 12 hex digits"),
        (#"[{"atMs": 0, "report": "01000000000g"}]"#, "steps[0].send[0].report: \"01000000000g\" is not a 6-byte HID report"),
        (#"[{"atMs": 0, "report": "080000000000"}]"#, "steps[0].send[0].report: HID report"),
        (#"[{"atMs": 0, "report": 12}]"#, "steps[0].send[0].report: expected a string"),
        (#"[{"atMs": 0, "packet": "aa000000"}]"#, "steps[0].send[0].packet: \"aa000000\" is not a 5-byte UDP packet: expected 10 hex digits"),
        (#"[{"atMs": 0, "packet": "bb00000000"}]"#, "steps[0].send[0].packet: header 0xbb is not a movement packet"),
        (#"[{"atMs": 0, "packet": "aa00000080"}]"#, "steps[0].send[0].packet: UDP packet"),
    ])
    func refused(_ items: String, _ problem: String) throws {
        let run = items.contains("report") ? #"{"transports": ["hid"]}"# : items.contains("packet") ? #"{"transports": ["udp"]}"# : "{}"
        do {
            _ = try Self.parse(items, run: run)
            Issue.record("\(items) was accepted")
        } catch let error as ScriptError {
            #expect(error.problems.contains { $0.hasPrefix(problem) || (problem == "steps[1]" && $0.contains("send[1].atMs: 8 ms goes back in time")) },
                    "\(error.problems)")
            #expect(error.description.hasPrefix("s.json: steps[0].send"), "\(error.description)")
        }
    }

    @Test("reports run on hid only, packets on udp only, never both in one scenario", arguments: [
        (#"[{"atMs": 0, "report": "000000000000"}]"#, "{}", "run.transports: steps[0].send[0].report is a hid report, sent on the hid transport only, but it applies to every transport"),
        (#"[{"atMs": 0, "report": "000000000000"}]"#, #"{"transports": ["hid", "ble"]}"#, "run.transports: steps[0].send[0].report is a hid report"),
        (#"[{"atMs": 0, "packet": "aa00010000"}]"#, #"{"transports": ["hid"]}"#, "run.transports: steps[0].send[0].packet is a udp packet, sent on the udp transport only, but it applies to [\"hid\"]"),
        (#"[{"atMs": 0, "report": "000000000000"}, {"atMs": 1, "packet": "aa00010000"}]"#, #"{"transports": ["hid"]}"#, "steps: steps[0].send[0].report is a hid report and steps[0].send[1].packet a udp packet"),
    ])
    func transports(_ items: String, _ run: String, _ problem: String) throws {
        do {
            _ = try Self.parse(items, run: run)
            Issue.record("\(items) with run \(run) was accepted")
        } catch let error as ScriptError {
            #expect(error.problems.contains { $0.hasPrefix(problem) }, "\(error.problems)")
        }
    }

    @Test("a command item goes on every transport")
    func commandsAnywhere() throws {
        let scenario = try Self.parse(#"[{"atMs": 0, "command": {"rightClick": {}}}]"#)
        #expect(Transport.allCases.allSatisfy(scenario.run.applies(to:)))
    }
}
