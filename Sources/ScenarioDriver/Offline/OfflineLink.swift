import GestureModel
package import RemoteTouchProtocol
package import GestureScript
package import InputCodes
import Synchronization
package import Verifier
package import Scenario

/// The link in process, for `hil replay`: writes reach the `OfflineComputer` at once while the link is up; a
/// drop lasts its outage and reconnecting works once it is over; a bluetoothd or computer restart comes back
/// at once. No status notifications. On the scenario's transport: hid sends what a report can say as reports,
/// udp sends movement as packets (refused unless paired), as the real phone does; ble and tcp send commands.
package final class OfflineLink: PhoneLink, NetworkFaults, RadioFaults {
    private struct State {
        var up = false
        var radioBack: MonotonicTime?
        var translator = PointerTranslator()
        /// What the offline radio holds after the radio steps so far (nil: the rig's own).
        var radio: RadioConditions?
    }

    private let computer: OfflineComputer
    private let clock: any DriverClock
    private let state = Mutex(State())

    private let transport: Transport

    package init(computer: OfflineComputer, clock: any DriverClock, transport: Transport = .ble) {
        self.computer = computer
        self.clock = clock
        self.transport = transport
    }

    /// How long the phone takes to see the link go down, and a bluetoothd restart, in virtual time.
    static let noticeTime = Duration.milliseconds(20)
    static let restartTime = Duration.milliseconds(500)

    package func connect() async throws -> String {
        state.withLock { $0.up = true }
        return "02:00:00:00:00:FE"
    }

    package func sendMalformed(_ bytes: [UInt8]) async throws -> [String] {
        guard state.withLock({ $0.up }) else { throw DriverError(.linkDown, "a malformed write: the link is down") }
        computer.receive(bytes)
        return [String(decoding: bytes, as: UTF8.self)]
    }

    package func send(_ command: Command, confirmed: Bool) async throws -> [String] {
        guard state.withLock({ $0.up }) else { throw DriverError(.linkDown, "\(command.name): the link is down") }
        if transport == .hid || transport == .udp, transport == .hid || PointerTranslator.isMovement(command),
           let inputs = state.withLock({ $0.translator.translate(command) })
        {
            let pointer: PointerPayload.Format = transport == .hid ? .hid : .udp
            let payloads = inputs.flatMap { input in
                pointer == .hid
                    ? input.reports().map { $0.encoded() }
                    : UDPPacket.movement(dx: input.dx, dy: input.dy, wheel: input.wheel, buttons: input.buttons).map { $0.encoded() }
            }
            for payload in payloads { computer.receivePointer(payload, format: pointer, bound: true) }
            return payloads.map { PointerPayload.text($0, format: pointer) }
        }
        if transport == .udp { state.withLock { $0.translator.carried(command) } }
        let bytes = command.encoded()
        computer.receive(bytes)
        return [String(decoding: bytes, as: UTF8.self)]
    }

    /// A recorded item reaches the computer as it is: a command as a command, a report or packet as a pointer
    /// report of this transport (from the phone's bound source).
    package func sendRecorded(_ payload: SendPayload, confirmed: Bool) async throws -> [String] {
        guard state.withLock({ $0.up }) else { throw DriverError(.linkDown, "\(payload): the link is down") }
        let pointer: PointerPayload.Format
        switch payload {
        case .command(let command):
            if transport == .udp { state.withLock { $0.translator.carried(command) } }
            computer.receive(command.encoded())
            return [payload.description]
        case .report where transport == .hid: pointer = .hid
        case .packet where transport == .udp: pointer = .udp
        case .report, .packet:
            throw DriverError(.wrongTransport, "a send step's \(payload.key) items go to the \(payload.key == "report" ? "hid" : "udp") transport only; this replay runs on \(transport.rawValue)")
        }
        computer.receivePointer(payload.bytes, format: pointer, bound: true)
        return [payload.description]
    }

    package func openFastPath() async throws {
        state.withLock { $0.translator = PointerTranslator() }
    }

    package func closeFastPath() {}

    package func requestPairing() async throws {
        computer.showCode()
    }

    package func enterCode(_ digits: String) async throws -> PairingObservation {
        let (refusal, status) = computer.enter(digits)
        return PairingObservation(refusal: refusal, status: status)
    }

    package func watchStatus() async {}

    package func statuses(from start: MonotonicTime, to end: MonotonicTime) -> [StatusObservation] { [] }

    package var statusCount: Int { 0 }

    package func takeDown(_ side: LinkSide, for outage: Duration) async throws -> any LinkOutage {
        let back = clock.now() + outage
        state.withLock {
            $0.up = false
            $0.radioBack = back
        }
        computer.linkDown("the link drops")
        try await clock.sleep(for: Self.noticeTime)
        return Outage(description: "\(side == .computer ? "the computer's" : "the phone's") radio off", back: back)
    }

    /// Offline there is no network to slow down: the step is noted, nothing else.
    package func setNetwork(_ conditions: NetworkConditions?) async throws -> String {
        "offline: no network, \(conditions.map { "\($0)" } ?? "reset") not applied"
    }

    /// Offline there is no radio to lose packets: the step is noted, and the model holds what it asked (a change of
    /// only what it names); its timing needs a rig.
    package func setRadio(_ conditions: RadioConditions?) async throws -> RadioSetting {
        let holds = state.withLock { state in
            state.radio = conditions.map { conditions in
                RadioConditions(packetErrorPercent: conditions.packetErrorPercent ?? state.radio?.packetErrorPercent,
                                intervalMs: conditions.intervalMs ?? state.radio?.intervalMs)
            }
            return state.radio
        }
        return RadioSetting(done: "offline: no radio, \(conditions.map { "\($0)" } ?? "reset") not applied", holds: holds)
    }

    /// Offline a blackout past the rig files' default supervision timeout (2000 ms) is an outage as a link drop is; a
    /// shorter one passes with the link up. Its timing (the drop at the timeout, the packets held) needs a rig.
    package func blackout(for length: Duration) async throws -> (any LinkOutage)? {
        guard length > Self.supervisionTimeout else {
            try await clock.sleep(for: length)
            return nil
        }
        return try await takeDown(.computer, for: length)
    }

    /// The supervision timeout a rig file gives its links when it does not say (Rigs/README.md, `connection`).
    static let supervisionTimeout = Duration.seconds(2)

    /// Offline a partition is an outage as a link drop is.
    package func partition(for outage: Duration) async throws -> any LinkOutage {
        try await takeDown(.computer, for: outage)
    }

    /// The computer gets the packets as the real one does: from the phone's socket while its link is up they move
    /// the pointer, from anywhere else (or after the session ended) they are refused.
    package func forge(_ count: Int, from source: ForgedSource, packets: ForgedPackets) async throws -> String {
        let bound = source == .phone && state.withLock { $0.up }
        for index in 0..<count { computer.receivePointer(packets.packet(index).encoded(), format: .udp, bound: bound) }
        return "offline: \(count) \(packets.rawValue) packet(s) from the \(source.rawValue), \(bound ? "bound" : "unbound")"
    }

    /// Another device's session, as the contract has it: a spent code pairs nothing, and a session that is not paired
    /// injects nothing (the offline computer keeps one pairing, the phone's).
    package func otherPhone(_ phone: OtherPhone, code: String?) async throws -> String {
        for command in phone.commands { computer.receiveFromAnotherSession(command.encoded()) }
        return "offline: another phone from the \(phone.from.rawValue) on \(phone.transport.rawValue)"
            + (code.map { "; entered \($0): refused (noCode: it was spent)" } ?? "") + "; \(phone.commands.count) command(s) refused"
    }

    struct Outage: LinkOutage {
        var description: String
        var back: MonotonicTime
        func restored() async -> (at: MonotonicTime, note: String) { (back, "") }
    }

    package func reconnect(timeout: Duration) async -> String? {
        let now = clock.now()
        return state.withLock { state in
            if let back = state.radioBack, now < back { return "the computer's radio is off" }
            state.up = true
            return nil
        }
    }

    package func disconnect() async throws {
        state.withLock {
            $0.up = false
            $0.radioBack = nil
        }
        computer.linkDown("the user disconnects")
        try await clock.sleep(for: Self.noticeTime)
    }

    package func forgetComputer() async throws {
        state.withLock { $0.up = false }
    }

    package func connectAgain(timeout: Duration) async -> String? {
        state.withLock { $0.up = true }
        return nil
    }

    package func restartStack(_ computer: any ComputerUnderTest, release: ReleaseCheck) async throws -> LinkObservation {
        self.computer.linkDown("bluetoothd restarts")
        try await clock.sleep(for: Self.restartTime)
        return LinkObservation(connected: true, attempts: 1, elapsedMs: Self.restartTime.milliseconds,
                               summary: "bluetoothd restarted: offline, the computer serves again after \(Self.restartTime)",
                               servingMs: Self.restartTime.milliseconds)
    }

    /// Offline the link holds nothing to let go of: the computer stops, and that is all.
    package func tearDown(erred: Bool, phase: (String) -> Void, stopComputer: @escaping @Sendable () async -> Void) async
        -> LinkTeardown
    {
        await stopComputer()
        return LinkTeardown()
    }
}
