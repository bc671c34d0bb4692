import Radio
import Testing

/// The radio spoken to in one type (issue 53 item 3): `BridgeCommand` is the one encoder and parser of the control
/// lines, its ranges checked once; `BridgeAnswer` the one owner of the answers' lines.
@Suite("BridgeCommand and BridgeAnswer: one encoding each, ranges checked once, every numbered command answered")
struct BridgeCommandTests {
    static let events = RadioModel(timing: .connectionEvents(packetsPerEvent: 6, buffers: 12), expectedIntervalUnits: 12)

    @Test("each command's line parses back to it", arguments: [
        BridgeCommand.errorRate(0.2), .errorRate(0), .blackout(milliseconds: 3000), .delay(milliseconds: 2.5), .state,
    ])
    func roundTrip(command: BridgeCommand) throws {
        #expect(try BridgeCommand(line: Substring(command.line)) == command)
        let request = BridgeCommand.request(7, command)
        #expect(BridgeCommand.parse(request: request).id == 7)
        #expect(try BridgeCommand.parse(request: request).command.get() == command)
    }

    @Test("values outside their range are refused with the range", arguments: [
        ("error-rate 1", "a packet error rate of 1 is outside 0 ≤ P < 1"), ("error-rate -0.1", "outside 0 ≤ P < 1"),
        ("blackout 60001", "a blackout of 60001 ms is outside 0 to 60000 ms"), ("delay 10000.5", "outside 0 to 10000 ms"),
        ("loud 5", "\"loud 5\" is no command"), ("state 1", "is no command"),
    ])
    func outOfRange(line: String, says: String) {
        let error = #expect(throws: RadioError.self) { _ = try BridgeCommand(line: Substring(line)) }
        #expect(error?.what.contains(says) == true, "\(String(describing: error))")
    }

    @Test("an answer's line parses back to it; a line that is no answer is nil")
    func answers() {
        let answer = BridgeAnswer(id: 12, accepted: false, errorRate: 0.05, delayMs: 2.5,
                                  links: [.init(handle: 0x2a, intervalMs: 30, anchorNs: 123_456_789), .init(handle: 0x0e01, intervalMs: 7.5, anchorNs: 9)],
                                  message: "a packet error rate of 1.5 is outside 0 ≤ P < 1")
        #expect(answer.line == "12 refused error-rate=0.05 delay=2.5 links=0x002a/30/123456789,0x0e01/7.5/9 a packet error rate of 1.5 is outside 0 ≤ P < 1")
        #expect(BridgeAnswer(line: Substring(answer.line)) == answer)
        #expect(BridgeAnswer(line: "12 maybe error-rate=0 delay=0 links= x") == nil)
        #expect(BridgeAnswer(line: "control: refused") == nil)
    }

    @Test("the bridge answers each numbered command with what it holds after it; a refusal changes nothing")
    func bridgeAnswers() throws {
        var core = RadioBridgeCore(model: Self.events)
        let at = RadioInstant(nanoseconds: 0)
        let accepted = core.control(BridgeCommand.request(1, .errorRate(0.25)), at: at)
        guard case .answer(let line)? = accepted.last, let answer = BridgeAnswer(line: Substring(line)) else {
            Issue.record("no answer in \(accepted)")
            return
        }
        #expect(answer.id == 1 && answer.accepted && answer.errorRate == 0.25)
        let refused = core.control("2 error-rate 1.5", at: at)
        guard case .answer(let text)? = refused.last, let no = BridgeAnswer(line: Substring(text)) else {
            Issue.record("no answer in \(refused)")
            return
        }
        #expect(no.id == 2 && !no.accepted && no.errorRate == 0.25 && no.message.contains("outside 0 ≤ P < 1"))
        #expect(core.model.packetErrorRate == 0.25)
    }
}
