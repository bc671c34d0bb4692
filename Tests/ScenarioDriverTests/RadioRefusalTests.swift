import GestureScript
import InputCodes
import RemoteTouchProtocol
import Scenario
import ScenarioDriver
import StrictJSON
import Synchronization
import Testing
import Verifier
import Records

/// The replay's link with a radio that answers as a rig's bridges might: it holds what it is told, or refuses.
final class AnsweringRadioLink: PhoneLink, RadioFaults {
    let inner: OfflineLink
    /// A radio step's answer: nil holds what the step asked, else the refusal.
    let refusal: String?

    init(_ inner: OfflineLink, refusal: String?) {
        self.inner = inner
        self.refusal = refusal
    }

    func setRadio(_ conditions: RadioConditions?) async throws -> RadioSetting {
        guard let refusal else { return try await inner.setRadio(conditions) }
        return RadioSetting(done: "", holds: nil, refusal: refusal)
    }

    func blackout(for length: Duration) async throws -> (any LinkOutage)? { try await inner.blackout(for: length) }
    func connect() async throws -> String { try await inner.connect() }
    func send(_ command: Command, confirmed: Bool) async throws -> [String] { try await inner.send(command, confirmed: confirmed) }
    func sendMalformed(_ bytes: [UInt8]) async throws -> [String] { try await inner.sendMalformed(bytes) }
    func openFastPath() async throws { try await inner.openFastPath() }
    func closeFastPath() { inner.closeFastPath() }
    func requestPairing() async throws { try await inner.requestPairing() }
    func enterCode(_ digits: String) async throws -> PairingObservation { try await inner.enterCode(digits) }
    func watchStatus() async {}
    func statuses(from start: MonotonicTime, to end: MonotonicTime) -> [StatusObservation] { [] }
    var statusCount: Int { 0 }
    func takeDown(_ side: LinkSide, for outage: Duration) async throws -> any LinkOutage { try await inner.takeDown(side, for: outage) }
    func restartStack(_ computer: any ComputerUnderTest, release: ReleaseCheck) async throws -> LinkObservation {
        try await inner.restartStack(computer, release: release)
    }
    func reconnect(timeout: Duration) async -> String? { await inner.reconnect(timeout: timeout) }
    func disconnect() async throws { try await inner.disconnect() }
    func forgetComputer() async throws { try await inner.forgetComputer() }
    func connectAgain(timeout: Duration) async -> String? { await inner.connectAgain(timeout: timeout) }
    func tearDown(erred: Bool, phase: (String) -> Void, stopComputer: @escaping @Sendable () async -> Void) async -> LinkTeardown {
        await inner.tearDown(erred: erred, phase: phase, stopComputer: stopComputer)
    }
}

/// A radio step's record is what the radio answered it holds (issue 53 item 3): a radio that refuses fails the step,
/// says so in its record, and the steps after it are judged under what the radio kept.
@Suite("A radio step records the radio's answer; a refusal fails the step")
struct RadioRefusalTests {
    static let json = #"""
        {"name": "noisy", "steps": [{"radio": {"packetErrorPercent": 30}},
          {"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "withinMs": 500}}]}
        """#

    static func run(refusal: String?) async throws -> (steps: [StepResult], outcome: ScenarioResult.Outcome, conditions: [Int: ScenarioDriver.LinkConditions]) {
        let scenario = try Scenario.parse(try JSONParser().parse(json), file: "noisy.json")
        let clock = VirtualClock()
        let computer = OfflineComputer(clock: clock, lockout: .seconds(300))
        let link = AnsweringRadioLink(OfflineLink(computer: computer, clock: clock), refusal: refusal)
        var options = ScenarioDriver.Options()
        options.judged.subtract([.status])
        let drive = try await ScenarioDriver(scenario: scenario, phone: link, computer: computer, clock: clock, options: options).run()
        let judged = drive.judged(receipts: computer.receipts(), frames: nil, scenario: scenario, options: options)
        var findings = drive.findings(heldAtEnd: [], droppedEvents: false, scenario: scenario, options: options).findings
        findings.steps = judged.steps.map(\.outcome)
        return (judged.steps, Judge.outcome(findings), drive.conditions)
    }

    @Test("a radio that holds what it was told: the step records it, unchecked, and the tap after it runs under it")
    func held() async throws {
        let run = try await Self.run(refusal: nil)
        #expect(run.steps.map(\.outcome) == [.unchecked, .passed])
        #expect(run.steps.map(\.radio) == ["packet error rate 30.0 %", "packet error rate 30.0 %"])
        #expect(run.conditions[1]?.radio == RadioConditions(packetErrorPercent: 30))
        #expect(run.outcome == .passed)
    }

    @Test("a bridge that refuses the rate: the step's record says so and the step fails; the tap runs under the rig's own")
    func refused() async throws {
        let why = "the radio bridge refused: a packet error rate of 0.3 is outside what this bridge takes"
        let run = try await Self.run(refusal: why)
        #expect(run.steps[0].outcome == .failed)
        #expect(run.steps[0].radio == "refused: " + why)
        #expect(run.steps[0].message == "radio: " + why)
        #expect(run.steps[1].outcome == .passed && run.steps[1].radio == "the rig's own")
        #expect(run.conditions[1]?.radio == nil)
        #expect(run.outcome == .failed)
    }
}
