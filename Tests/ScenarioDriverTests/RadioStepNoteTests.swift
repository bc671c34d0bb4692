import Records
import Scenario
import ScenarioDriver
import StrictJSON
import Testing

/// A radio step mid-way says what it set on its own result (issue 54, item 4): not on the gesture before it, not on
/// the first step, and commands.log names it "radio:" once.
@Suite("A radio step's note is on that step")
struct RadioStepNoteTests {
    static let json = #"""
        {"name": "radio mid-way", "steps": [
          {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "withinMs": 500}},
          {"radio": {"packetErrorPercent": 20}},
          {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "withinMs": 500}},
          {"radio": {"intervalMs": 30}},
          {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "withinMs": 500}}]}
        """#

    @Test("a packet error rate and an interval change, each after a tap: each note on its own step, commands.log says radio once")
    func notesOnTheirSteps() async throws {
        let scenario = try Scenario.parse(try JSONParser().parse(Self.json), file: "radio-mid-way.json")
        let clock = VirtualClock()
        let computer = OfflineComputer(clock: clock, lockout: .seconds(300))
        var options = ScenarioDriver.Options()
        options.judged.subtract([.status])
        let drive = try await ScenarioDriver(scenario: scenario, phone: OfflineLink(computer: computer, clock: clock),
                                             computer: computer, clock: clock, options: options).run()
        let steps = drive.judged(receipts: computer.receipts(), frames: nil, scenario: scenario, options: options).steps
        #expect(steps.map(\.outcome) == [.passed, .unchecked, .passed, .unchecked, .passed])
        #expect(!steps[0].message.contains("radio"), "the first tap carries the radio step's note: \(steps[0].message)")
        #expect(!steps[2].message.contains("radio:"), "the tap before the interval change carries its note: \(steps[2].message)")
        #expect(steps[1].message.hasPrefix("radio: ") && steps[1].message.contains("packet error rate 20"), "\(steps[1].message)")
        #expect(steps[3].message.hasPrefix("radio: ") && steps[3].message.contains("30"), "\(steps[3].message)")
        #expect(steps.map(\.radio) == [nil, "packet error rate 20.0 %", "packet error rate 20.0 %",
                                       steps[3].radio, steps[3].radio])
        #expect(steps[3].radio?.contains("30") == true, "\(String(describing: steps[3].radio))")
        let radioLines = drive.commandLog.split(separator: "\n").filter { $0.contains("radio:") }
        #expect(radioLines.count == 2, "\(drive.commandLog)")
        #expect(!drive.commandLog.contains("radio: radio:"), "\(drive.commandLog)")
    }

    @Test("hil replay lists each radio step among the computer's lines, in its place: applied nowhere offline")
    func replayListsThem() async throws {
        let scenario = try Scenario.parse(try JSONParser().parse(Self.json), file: "radio-mid-way.json")
        let lines = await OfflineReplay.run(scenario).lines
        let radio = lines.indices.filter { lines[$0].contains("radio: offline: no radio") }
        #expect(radio.count == 2, "\(lines)")
        // In time order with the computer's lines: the first radio step comes after the mode write; a single tap is
        // sent once its double-tap window has passed, so the taps' lines fall after the radio steps that followed them.
        let mode = lines.firstIndex { $0.contains("modeChange") }
        #expect(mode != nil && mode! < radio[0] && radio[0] < radio[1], "\(lines.joined(separator: "\n"))")
        #expect(lines.filter { $0.contains("BTN_LEFT 1") }.count == 3, "\(lines.joined(separator: "\n"))")
    }
}
