import GestureScript
import Scenario
import StrictJSON
import Testing

@Suite("A scenario's transports: where it applies, where it runs by default, the network app's backoff")
struct TransportSettingsTests {
    static func parse(_ run: String) throws -> Scenario {
        try Scenario.parse(try JSONParser().parse(#"{"name": "n", "run": \#(run), "steps": [{"tap": {}}]}"#), file: "s.json")
    }

    @Test("transport, transports and the backoff are read; a scenario without them applies everywhere and runs on ble")
    func read() throws {
        let scenario = try Self.parse(#"{"transport": "tcp", "transports": ["tcp"], "backoffUnitMs": 100, "maxBackoffAttempts": 4}"#)
        #expect(scenario.run.transport == .tcp)
        #expect(scenario.run.applies(to: .tcp))
        #expect(!scenario.run.applies(to: .ble))
        #expect(scenario.run.backoffUnit == .milliseconds(100))
        #expect(scenario.run.maxBackoffAttempts == 4)
        let plain = try Self.parse("{}")
        #expect(plain.run.transport == nil)
        #expect(Transport.allCases.allSatisfy(plain.run.applies(to:)))
        #expect(plain.run.backoffUnit == .seconds(1))
        #expect(plain.run.maxBackoffAttempts == 5)
    }

    @Test("bad transports are refused with their JSON path", arguments: [
        (#"{"transport": "wifi"}"#, "run.transport: unknown value \"wifi\"; expected one of \"ble\", \"hid\", \"tcp\", \"udp\""),
        (#"{"transports": []}"#, "run.transports: list at least one transport the scenario applies to"),
        (#"{"transports": ["ble", "ble"]}"#, "run.transports[1]: ble is listed twice"),
        (#"{"transport": "tcp", "transports": ["ble"]}"#, "run.transport: tcp is not among the scenario's transports [\"ble\"]"),
        (#"{"backoffUnitMs": 0}"#, "run.backoffUnitMs"),
        (#"{"maxBackoffAttempts": 0}"#, "run.maxBackoffAttempts"),
    ])
    func refused(_ run: String, _ problem: String) throws {
        do {
            _ = try Self.parse(run)
            Issue.record("\(run) was accepted")
        } catch let error as ScriptError {
            #expect(error.problems.contains { $0.hasPrefix(problem) }, "\(error.problems)")
        }
    }
}
