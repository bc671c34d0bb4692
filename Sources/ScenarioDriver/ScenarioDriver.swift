import Foundation
import GestureModel
package import GestureScript
import LatencyStats
package import InputCodes
import RemoteTouchProtocol
package import Scenario
package import Verifier
import Waiting

/// Runs a scenario's steps against a phone link and a computer under test, in the time of `clock`: the phone's
/// gesture model, 16 ms pacing, segments judged as they close, idle (R11), the reconnect policy (R12), the mode
/// re-sent after a reconnect, hostile writes. It knows no transport, no BlueZ and no evdev: a rig run and
/// `hil replay` differ only in the link, the computer and the clock they hand it.
package final class ScenarioDriver {
    /// How the run is set.
    package struct Options: Sendable {
        /// Multiplies every deadline and latency limit (the rig's `latencyScale`).
        package var latencyScale: Double
        /// End the scenario at its first failed step (the rest are reported as not run): `hil run --fail-fast`.
        package var failFast: Bool
        /// Which verdicts this run can give; the others are left unjudged (an offline replay has no status, no
        /// pairing code and no real link).
        package var judged: Set<Check>
        /// The time rules' limits and the rig's own link (nil: the stages are not judged, as in `hil replay`).
        package var timing: Timing?

        package init(latencyScale: Double = 1, failFast: Bool = false, judged: Set<Check> = Set(Check.allCases),
                     timing: Timing? = nil)
        {
            self.latencyScale = latencyScale
            self.failFast = failFast
            self.judged = judged
            self.timing = timing
        }
    }

    /// What the time rules (`StageRule`) judge a rig run's stages against.
    package struct Timing: Sendable, Hashable {
        package var limits: StageRule.Limits
        /// Where the limits come from, for messages: "the vm rig's release limits".
        package var stated: String
        /// The rig's radio under ble and hid (interval nil: it delivers at once; nil: not known, the link not judged).
        package var radio: StageRule.LinkModel?
        /// The scenario runs over the network between the rig's hosts (tcp, udp), not the radio.
        package var overNetwork = false

        package init(limits: StageRule.Limits, stated: String, radio: StageRule.LinkModel?) {
            self.limits = limits
            self.stated = stated
            self.radio = radio
        }

        /// The link model of a step that ran under `conditions` (nil: the rig's own); nil when it cannot be judged.
        package func model(_ conditions: LinkConditions?) -> StageRule.LinkModel? {
            if overNetwork {
                let network = conditions?.network
                return .network(delayMs: network?.delayMs ?? 0, jitterMs: network?.jitterMs ?? 0, lossPercent: network?.lossPercent ?? 0)
            }
            guard case .radio(let interval, let rate)? = radio else { return nil }
            let changed = conditions?.radio
            return .radio(intervalMs: changed?.intervalMs ?? interval, errorRate: changed?.packetErrorPercent.map { $0 / 100 } ?? rate)
        }
    }

    /// The kinds of check a run judges (offline, only some of them).
    package enum Check: String, Sendable, Hashable, CaseIterable {
        case events, link, phone, status, received, pairing, devices, limits, accounting
    }

    /// What driving the steps produced, before the computer's receipts are in.
    package struct Drive: Sendable {
        /// What each step's checks found so far; `judged(receipts:…)` adds the receipts' and decides the steps.
        package var evidence: [StepEvidence]
        /// Every command with the time it was handed to the link.
        package var sends: [StageBreakdown.Send]
        /// When each step began and ended.
        package var windows: [Int: StepWindow]
        /// When each step whose events were judged was judged: later than its window's end when its commands left
        /// after its inputs (a tap's, 300 ms after the touch).
        package var judgedAt: [Int: MonotonicTime] = [:]
        /// Scenario-level problems found while connecting (the device list, R6): each fails the scenario.
        package var problems: [String]
        /// Scenario-level notes that are no verdict (how a restarted computer exited).
        package var notes: [String]
        /// Every command handed to the link (or not, while it was down), one line each: `commands.log`.
        package var commandLog: String
        /// What changed what the computer must do, besides the writes: the pairing, the link going down, the
        /// computer's restart, network loss (`CommandAccounting`).
        package var accountingEvents: [(at: UInt64, step: Int, event: AccountingRecord.Event)] = []
        /// The radio or network conditions each step ran under, when a step changed the rig's own (`StageRule`).
        package var conditions: [Int: LinkConditions] = [:]

        /// Each step's window as the timeline shows it: from its start to its end or, later, to when its events were
        /// judged, so its command and the frames it is judged by are inside it.
        package var shownWindows: [Int: ClosedRange<UInt64>] {
            Dictionary(uniqueKeysWithValues: windows.map { index, window in
                let end = max(window.start.nanoseconds, window.end.nanoseconds, judgedAt[index]?.nanoseconds ?? 0)
                return (index, window.start.nanoseconds...end)
            })
        }
    }

    /// A step's link conditions set by the scenario's radio and network steps (nil fields: the rig's own).
    package struct LinkConditions: Sendable, Hashable {
        package var radio: RadioConditions?
        package var network: NetworkConditions?
    }

    /// When a step began and ended, on the driver's clock.
    package struct StepWindow: Sendable, Hashable {
        package var start: MonotonicTime
        package var end: MonotonicTime
        package init(start: MonotonicTime, end: MonotonicTime) {
            self.start = start
            self.end = end
        }
    }

    let scenario: Scenario
    let phone: any PhoneLink
    let computer: any ComputerUnderTest
    let clock: any DriverClock
    let options: Options
    let phase: (String) -> Void

    var processor: GestureProcessor
    let origin: MonotonicTime
    var results: [StepEvidence] = []
    var segment: Segment?
    /// The segment judged last, while no link or pairing step came after it (see `judgeSegment`).
    var lastJudged: JudgedSegment?
    var activityAtEnd: [Int: Activity] = [:]
    /// The radio each step ran under, from the first `radio` step on (`StepResult.radio`), and the conditions in force.
    var radioByStep: [Int: String] = [:]
    var radioNow: RadioConditions?
    var windows: [Int: StepWindow] = [:]
    var judgedAt: [Int: MonotonicTime] = [:]
    package internal(set) var commandLog = ""
    /// The commands the phone did not send because the link was down, with their times.
    package internal(set) var unsent: [(at: MonotonicTime, payload: String)] = []
    /// What the steps that act on the link or the network did, with their times, as `commands.log` has them
    /// (`radio: …`, `network: …`): `hil replay` prints them among the computer's lines.
    package internal(set) var linkActions: [(at: MonotonicTime, text: String)] = []
    var sends: [StageBreakdown.Send] = []
    var accountingEvents: [(at: UInt64, step: Int, event: AccountingRecord.Event)] = []
    var conditions: [Int: LinkConditions] = [:]
    var networkNow: NetworkConditions?
    /// What a step that acted on the link or the network did (a radio, network, forged-packet, other-phone or
    /// malformed-write step), for that step's own message.
    var stepNotes: [Int: String] = [:]
    /// What failed in a step that acted on the link (a radio step the radio refused), for that step's evidence.
    var stepProblems: [Int: [String]] = [:]
    /// The code the phone last paired with (an `otherPhone` step's `spent` code).
    var pairedWith: String?
    /// The step being driven.
    var currentStep = 0
    var problems: [String] = []
    /// The pairing lockout the phone last saw begin, until a `pair` step sees it over.
    var lockout: LockoutWindow?
    var notes: [String] = []
    /// The phone's remembered computers once connected (R6).
    package internal(set) var devices = DeviceStore()
    /// False after the user disconnected or the phone gave up reconnecting: the phone sends nothing then.
    var linkUp = true
    /// The gesture timeline, from `origin`.
    var time = Duration.zero
    /// Where `run.sendJitterMs`'s delays come from: a fixed seed, so a run and its replay jitter alike.
    var jitterSource = SplitMix64(seed: 0x6A69_7474_6572)

    /// - Parameter phase: called as each phase of the run ends ("connected", "paired", "steps done").
    package init(scenario: Scenario, phone: any PhoneLink, computer: any ComputerUnderTest, clock: any DriverClock,
                options: Options, phase: @escaping (String) -> Void = { _ in })
    {
        self.scenario = scenario
        self.phone = phone
        self.computer = computer
        self.clock = clock
        self.options = options
        self.phase = phase
        processor = GestureProcessor(settings: scenario.script.settings, at: .zero)
        origin = clock.now()
    }

    /// Connects (the phone remembers the computer, R6), pairs when the run says so, sends the phone's mode, and
    /// drives every step; segments are judged as they close.
    package func run() async throws -> Drive {
        let address = try await phone.connect()
        phase("connected")
        rememberComputer(address)
        if scenario.run.pairing == .pair {
            try await phone.requestPairing()
            let code = try await awaitPairingCode(timeout: .seconds(5))
            let paired = try await phone.enterCode(code)
            pairedWith = code
            if let refusal = paired.refusal {
                throw DriverError(.pairingRefused, "pairing with the code the computer shows (\(code)) was refused: \(refusal); it reports \(paired.status.state.rawValue)")
            }
        }
        phase("paired")
        await phone.watchStatus()
        // The phone sends its mode on connect, as a confirmed write: bluetoothd acquires the command socket
        // on the first write, and BlueZ 5.66 corrupts that first value if a second write arrives before the
        // acquisition completes (seen as `{"button":…}ntation"}}`); a write with response waits it out.
        for output in processor.resync(at: .zero) {
            guard let command = output.command else { continue }
            try await phone.send(command, confirmed: true)
        }
        try await phone.openFastPath()
        try await driveSteps()
        try await judgeSegment()
        judgeStatusAndPhone()
        phase("steps done")
        for index in results.indices { results[index].radio = radioByStep[results[index].index] }
        return Drive(evidence: results, sends: sends, windows: windows, judgedAt: judgedAt, problems: problems, notes: notes,
                     commandLog: commandLog, accountingEvents: accountingEvents, conditions: conditions)
    }

    private func driveSteps() async throws {
        let steps = scenario.script.steps
        for (index, step) in steps.enumerated() {
            currentStep = index
            noteRadio(index, step)
            let stepStart = clock.now()
            defer { windows[index] = StepWindow(start: stepStart, end: clock.now()) }
            if case .pair(let code) = step {
                try await closeSegments()
                results.append(try await pair(index, code: code))
                time = max(time, elapsed)
                continue
            }
            if step.isLinkAction {
                try await closeSegments()
                results.append(try await linkStep(index, step))
                time = max(time, elapsed)
                continue
            }
            try await gestureStep(index, step)
            if options.failFast, results.contains(where: { Judge.stepOutcome($0) == .failed }) {
                cutShort(after: index)
                break
            }
        }
    }

    /// Before a pairing or link step: judges the open segment; frames after the step are not the earlier ones'.
    private func closeSegments() async throws {
        try await judgeSegment()
        segment = nil
        lastJudged = nil
    }

    /// A step that drives the gesture model: it opens a segment when it has an expectation of its own (or none
    /// is open), then its inputs are sent, each at its time, with what the phone's timers send meanwhile.
    private func gestureStep(_ index: Int, _ step: ScriptStep) async throws {
        let expectation = scenario.expectations[index].events
        if expectation != nil || segment == nil {
            try await judgeSegment()
            // Judging may have taken real time: the gesture timeline moves on from now.
            time = max(time, elapsed)
            segment = Segment(step: index, expectation: expectation, startedAt: clock.now(), lastStep: index)
        } else {
            segment?.lastStep = index
        }
        try await actOnTheLink(index, step)
        if case .send(let items) = step { try await sendItems(items, from: time) }
        for input in step.inputs(startingAt: time) {
            try await runTimers(before: input.time)
            try await sleep(until: input.time)
            try await send(processor.handle(input.input, at: input.time))
        }
        time += step.duration()
        try await runTimers(before: time)
        try await sleep(until: time)
        // Let every timer that fell due run, the idle timer included (R11); the next step starts from there.
        time = max(time, elapsed)
        try await send(processor.advance(to: time))
        activityAtEnd[index] = processor.activity
    }

    /// The radio step `index` runs under, from the first radio step on, and the conditions the time rules judge it
    /// under. A radio step's own is recorded when the radio answered (`recordRadio`).
    private func noteRadio(_ index: Int, _ step: ScriptStep) {
        switch step {
        case .radio: return
        case .radioBlackout(let length):
            radioByStep[index] = "blackout \(Judge.format(length.milliseconds)) ms" + (radioNow.map { ", \($0)" } ?? "")
            return
        default: break
        }
        conditions[index] = LinkConditions(radio: radioNow, network: networkNow)
        if let radioNow {
            radioByStep[index] = radioNow.description
        } else if !radioByStep.isEmpty {
            radioByStep[index] = "the rig's own"
        }
    }

    /// A radio step's record: what the radio answered it holds (a radio step changes only what it names, a reset gives
    /// back the rig's own), from which the steps after it are judged; or the radio's refusal, which fails the step and
    /// leaves the radio as it was.
    func recordRadio(_ index: Int, _ setting: RadioSetting) {
        if let refusal = setting.refusal {
            radioByStep[index] = "refused: " + refusal
            stepProblems[index, default: []].append("radio: " + refusal)
        } else {
            radioNow = setting.holds
            radioByStep[index] = radioNow?.description ?? "the rig's own"
        }
        conditions[index] = LinkConditions(radio: radioNow, network: networkNow)
    }

    /// --fail-fast: a failed verdict is known once its segment is judged (when the next judged step begins); what
    /// is open is left unjudged and the rest is not run.
    private func cutShort(after index: Int) {
        segment = nil
        let steps = scenario.script.steps
        for skipped in 0..<steps.count where !results.contains(where: { $0.index == skipped }) {
            let why = skipped <= index ? "not judged" : "not run"
            results.append(StepEvidence(index: skipped, kind: steps[skipped].name, notes: ["\(why): an earlier step failed (--fail-fast)"]))
        }
        results.sort { $0.index < $1.index }
    }

    /// Notes, at this moment of the step being driven, what changes what the computer must do.
    func noteAccounting(_ event: AccountingRecord.Event, at time: MonotonicTime? = nil) {
        accountingEvents.append(((time ?? clock.now()).nanoseconds, currentStep, event))
    }

    /// Time on the gesture timeline now.
    var elapsed: Duration { clock.now() - origin }

    func sleep(until time: Duration) async throws {
        try await clock.sleep(until: origin + time)
    }

    /// The pairing code the computer shows, awaited as its change (at most `timeout` of the scenario's time).
    func awaitPairingCode(timeout: Duration) async throws -> String {
        let code = try await computer.upTo(clock.now() + timeout, on: clock) { computer.pairingCode().flatMap { $0.isEmpty ? nil : $0 } }
        guard let code else { throw DriverError(.timeout, "\(WaitTimeout("the pairing code", timeout: timeout))") }
        return code
    }

}
