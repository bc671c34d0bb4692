package import GestureScript
package import InputCodes
package import Verifier
package import RemoteTouchProtocol

/// The phone's side of one transport, as the scenario driver sees it: what a phone does (connect, send, pair,
/// status, reconnect) and its own teardown. The faults a rig injects are `RigFaults` and `NetworkFaults`, which a
/// link adopts where its rig can do them. One implementation per transport (BLE over BlueZ on a rig; in-process
/// for `hil replay`).
/// Methods are called from one task at a time, in the driver's order.
package protocol PhoneLink: AnyObject, Sendable {
    /// Connects to the computer (found by the transport's own discovery); returns its address, which the phone
    /// remembers (R6).
    func connect() async throws -> String
    /// Hands one command to the link, which carries it in its transport's form: the JSON command (ble, tcp), hid
    /// reports (hid), udp packets for movement (udp). `confirmed`: wait for the computer's acknowledgement (a BLE
    /// write request). Returns what went out, one entry per write as the computer's receipts show it — the JSON
    /// command, a hid report's `hid …`, a udp packet's `udp …`; none for a move of less than a count — so receipts
    /// match sends.
    @discardableResult
    func send(_ command: Command, confirmed: Bool) async throws -> [String]
    /// A hostile phone's write: `bytes` as they are, where a command would go (BLE: the command characteristic,
    /// without response; tcp and udp: the control connection). Returns what went out, as `send` does.
    @discardableResult
    func sendMalformed(_ bytes: [UInt8]) async throws -> [String]
    /// Hands one item of a `send` step to the link as it is: a command written as a command (not turned into hid
    /// reports or udp packets), a hid report to the report characteristic, a udp packet to the movement port.
    /// Returns what went out as the computer's receipts show it (`hid 010a00000000`, `udp aa0005fb00`).
    /// - Throws: for a report or packet on a transport that has no such path.
    @discardableResult
    func sendRecorded(_ payload: SendPayload, confirmed: Bool) async throws -> [String]
    /// `send`, each write with when it left the phone's host where the link knows that better than the moment it was
    /// handed over (a phone stack in a process of its own stamps the write's first ACL fragment going to the HCI
    /// socket); the sends matched to the receipts take that time, so the link stage starts where it does for every stack.
    func sendStamped(_ command: Command, confirmed: Bool) async throws -> [SentWrite]
    /// `sendRecorded`, stamped as `sendStamped`.
    func sendRecordedStamped(_ payload: SendPayload, confirmed: Bool) async throws -> [SentWrite]
    /// Writes handed over until `releaseFrames()` (a `send` step's items at one `atMs`) leave together where the
    /// transport frames its writes: over tcp (and the udp transport's control connection) as one batch frame with
    /// one timestamp, as a 120 Hz phone sends the events of one display frame. Other links carry each at once.
    func holdFrames()
    /// Ends `holdFrames()`: what waits leaves now.
    func releaseFrames() throws
    /// Opens the transport's fast write path when the run asks for it (BLE: `AcquireWrite`); called after every
    /// (re)connect, once the phone has told the computer its mode.
    func openFastPath() async throws
    /// The link went down: the fast path is gone with it.
    func closeFastPath()
    /// Asks to pair, so the computer shows a code (BLE: reads the pairing characteristic).
    func requestPairing() async throws
    /// Enters a code and reads the pairing state back.
    func enterCode(_ digits: String) async throws -> PairingObservation
    /// Subscribes to status notifications (again, after a reconnect).
    func watchStatus() async
    /// The status notifications that arrived between two times.
    func statuses(from start: MonotonicTime, to end: MonotonicTime) -> [StatusObservation]
    /// How many status notifications arrived in all.
    var statusCount: Int { get }

    /// One try to connect again to the computer the phone knows; nil when connected, else why not.
    func reconnect(timeout: Duration) async -> String?
    /// The user disconnects; returns once the link is down.
    func disconnect() async throws
    /// The computer's app is stopping: the phone lets go of it (its cached services go stale) and looks for it.
    func forgetComputer() async throws
    /// Finds the computer again after its restart and connects (one try); nil when connected, else why not.
    func connectAgain(timeout: Duration) async -> String?
    /// How this transport's app reconnects after an unexpected drop (BLE: every `reconnectInterval`, R12); the
    /// scenario's run settings give the numbers.
    var reconnectRule: ReconnectPolicy.Rule { get }
    /// The scenario is over: the phone stops listening and lets the link go, `stopComputer` stops the computer at the
    /// moment this transport needs (BLE: once its adapter is off, while the phone forgets it), and the link puts the
    /// rig back as the next scenario needs it. Never throws: what went wrong is in the returned teardown.
    /// - Parameters:
    ///   - erred: the scenario is an error already (the rig then resets more).
    ///   - phase: records a teardown phase's end, for the run's time table.
    func tearDown(erred: Bool, phase: (String) -> Void, stopComputer: @escaping @Sendable () async -> Void) async
        -> LinkTeardown
}

extension PhoneLink {
    package func holdFrames() {}
    package func releaseFrames() throws {}

    /// A command through `send`; a report or a packet is refused (the transports that carry them override this).
    package func sendRecorded(_ payload: SendPayload, confirmed: Bool) async throws -> [String] {
        guard case .command(let command) = payload else {
            throw DriverError(.wrongTransport, "a send step's \(payload.key) items go to the \(payload.key == "report" ? "hid" : "udp") transport only, and this link has no \(payload.key == "report" ? "report characteristic" : "movement port") (the scenario's run.transports says where it applies)")
        }
        return try await send(command, confirmed: confirmed)
    }

    /// RemoteTouch's rule (R12): a try every `reconnectInterval`, at most `maxReconnectAttempts`.
    package var reconnectRule: ReconnectPolicy.Rule { .everyInterval }

    /// `send`'s writes, stamped when handed over (the link knows no later moment).
    package func sendStamped(_ command: Command, confirmed: Bool) async throws -> [SentWrite] {
        try await send(command, confirmed: confirmed).map { SentWrite($0) }
    }

    /// `sendRecorded`'s writes, stamped when handed over.
    package func sendRecordedStamped(_ payload: SendPayload, confirmed: Bool) async throws -> [SentWrite] {
        try await sendRecorded(payload, confirmed: confirmed).map { SentWrite($0) }
    }
}

/// One write a link sent: what the computer's receipts show, and when it left the phone's host if the link knows
/// (nil: when it was handed over, the driver's stamp).
package struct SentWrite: Sendable, Hashable {
    package var payload: String
    package var leftHost: MonotonicTime?

    package init(_ payload: String, leftHost: MonotonicTime? = nil) {
        self.payload = payload
        self.leftHost = leftHost
    }
}

/// Faults a rig injects into a link, which the user did not ask for: a link adopts it where its rig can do them.
package protocol RigFaults: PhoneLink {
    /// Takes the link down without the user asking (BLE: one side's adapter off) for `outage`; returns once the
    /// phone has seen it go down. The outage ends by itself.
    func takeDown(_ side: LinkSide, for outage: Duration) async throws -> any LinkOutage
    /// Restarts the transport's system service (BLE: bluetoothd) and waits for the computer to serve again and the
    /// phone to reconnect. `release` checks what the computer still holds once the link is down.
    func restartStack(_ computer: any ComputerUnderTest, release: ReleaseCheck) async throws -> LinkObservation
}

/// Faults on the network between the phone and computer hosts: the network transports' links adopt it.
package protocol NetworkFaults: RigFaults {
    /// Network transports: puts delay, jitter and loss on the network between the hosts until the next call (nil:
    /// none); returns what was done, for the step's message.
    func setNetwork(_ conditions: NetworkConditions?) async throws -> String
    /// Network transports: the network between the hosts drops everything for `outage` (no RST, interfaces up);
    /// returns once the phone has seen its link go down, as `takeDown`.
    func partition(for outage: Duration) async throws -> any LinkOutage
    /// The udp transport: a host that is not the bound phone sends `count` movement packets to the computer's UDP
    /// port; returns what was sent, for the step's message.
    func forge(_ count: Int, from source: ForgedSource, packets: ForgedPackets) async throws -> String
    /// Another device's session on a control port (`otherPhone`): connects, enters the code it is given (nil: none),
    /// sends the commands, waits for their answers and closes; returns what the computer answered, for the step's message.
    func otherPhone(_ phone: OtherPhone, code: String?) async throws -> String
}

/// The vm rig's emulated radio under the BLE transports (ble, hid): their links adopt it.
package protocol RadioFaults: RigFaults {
    /// Sets the radio's packet error rate and the link's interval (what `conditions` gives) until a later call
    /// changes them (nil: back to the rig's own); returns what the radio holds then, as it answered.
    func setRadio(_ conditions: RadioConditions?) async throws -> RadioSetting
    /// Every transmission fails for `length`. When that is longer than the link's supervision timeout the link ends
    /// (reason 0x08): returns the outage once the phone has seen its link go down, ending when the blackout does.
    /// Otherwise returns nil when the blackout is over, the link still up.
    func blackout(for length: Duration) async throws -> (any LinkOutage)?
}

/// What a link's teardown found: problems that make a scenario that passed an error, the rig's notes, and why the
/// rig can run no further scenario, if it cannot.
package struct LinkTeardown: Sendable {
    /// "tearing the link down failed: …"
    package var problems: [String] = []
    /// "rig: …" lines for the scenario's message.
    package var notes: [String] = []
    package var rigBroken: String?

    package init() {}
}

/// A link taken down by `RigFaults.takeDown`, coming back by itself.
package protocol LinkOutage: Sendable {
    /// What went down, for the step's message: "the computer's adapter hci0 off".
    var description: String { get }
    /// Waits until the outage is over: when the radio or the network came back, and what the rig noticed on the way.
    func restored() async -> (at: MonotonicTime, note: String)
}

/// The computer under test as the driver sees it: what came out of its input device, what it received, its
/// pairing code, and its restart.
package protocol ComputerUnderTest: AnyObject, Sendable {
    /// The input device's frames stamped at or after `since`.
    func frames(since: MonotonicTime) -> [EvdevFrame]
    /// The reader fell behind and the kernel dropped events (SYN_DROPPED): verdicts are inconclusive.
    var droppedEvents: Bool { get }
    /// The keys and buttons the input device holds now (the kernel's view), by name.
    func heldKeys() -> [String]
    /// Every write the computer received so far, with its handling times.
    func receipts() -> [StageBreakdown.Receipt]
    /// The pairing code it shows, once it shows one.
    func pairingCode() -> String?
    /// Its own log so far.
    var log: String { get }
    /// Counts what the computer showed so far (frames, receipts, its pairing code): read it before looking, and
    /// `awaitChange(after:until:)` returns at the next change.
    var changeCount: UInt64 { get }
    /// Returns at the first change after `seen` (at once when one came already), or at `deadline` on the scenario's
    /// clock. Throws `CancellationError` when the task is cancelled.
    func awaitChange(after seen: UInt64, until deadline: MonotonicTime) async throws
    /// Stops the computer's app, runs `whileStopped`, starts it again on the same state; returns notes for the
    /// step's message.
    func restart(whileStopped: () async throws -> Void) async throws -> String
}

extension ComputerUnderTest {
    /// Reads once, then again at each change the computer shows, until `read` returns a value or `deadline` (on
    /// `clock`) passed: then nil, after one last read. Nothing is read on a timer.
    func upTo<Value>(_ deadline: MonotonicTime, on clock: any DriverClock, _ read: () throws -> Value?) async throws -> Value? {
        while true {
            let seen = changeCount
            if let value = try read() { return value }
            guard clock.now() < deadline else { return nil }
            try await awaitChange(after: seen, until: deadline)
        }
    }
}

/// The clock a scenario runs on: CLOCK_MONOTONIC in real time on a rig, a virtual one for `hil replay`.
package protocol DriverClock: Sendable {
    func now() -> MonotonicTime
    func sleep(until time: MonotonicTime) async throws
}

extension DriverClock {
    func sleep(for duration: Duration) async throws {
        try await sleep(until: now() + duration)
    }
}

/// Real time on CLOCK_MONOTONIC.
package struct RealTimeClock: DriverClock {
    package init() {}

    package func now() -> MonotonicTime { .now() }

    package func sleep(until time: MonotonicTime) async throws {
        let left = time - .now()
        if left > .zero { try await Task.sleep(for: left) } else { try Task.checkCancellation() }
    }
}

extension MonotonicTime {
    static func + (time: MonotonicTime, duration: Duration) -> MonotonicTime {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        return MonotonicTime(nanoseconds: UInt64(max(0, Int64(time.nanoseconds) + nanoseconds)))
    }
}

/// What a `radio` step left the radio holding, as the radio itself answered (the vm rig's bridges, `BridgeAnswer`):
/// the step's record in results.json, and the conditions the time rules judge the steps after it under.
package struct RadioSetting: Sendable, Hashable {
    /// What was done, for the step's message.
    package var done: String
    /// What the radio holds where it differs from the rig's own (nil: the rig's own).
    package var holds: RadioConditions?
    /// Why the radio refused the step (a bridge refused its command, or holds something else than asked): the step
    /// fails with it, and the radio keeps what it held before.
    package var refusal: String?

    package init(done: String, holds: RadioConditions?, refusal: String? = nil) {
        self.done = done
        self.holds = holds
        self.refusal = refusal
    }
}
