/// The HCI commands sent to one adapter that its controller has not answered yet, from the monitor channel's
/// frames: a command is answered by its Command Complete or Command Status event, and one the controller never
/// answers is given up after the kernel's own command timeout (HCI_CMD_TIMEOUT, 2 s: dmesg then says
/// "command 0x.... tx timeout"), as the kernel then moves on to its next command.
struct HCICommandLedger {
    /// The kernel's HCI_CMD_TIMEOUT (include/net/bluetooth/hci.h), with a margin for the guest's clock.
    static let commandTimeout = Duration.milliseconds(2_200)

    let index: UInt16
    /// Unanswered commands, oldest first: opcode and when it was seen.
    private(set) var pending: [(opcode: UInt16, sent: ContinuousClock.Instant)] = []
    /// When a frame of this adapter was last seen.
    private(set) var lastFrame: ContinuousClock.Instant?
    /// Commands given up after the command timeout, in the order they were.
    private(set) var timedOut: [UInt16] = []
    /// Whether the controller advertises, as the last advertising enable it accepted says (LE Set Advertising
    /// Enable 0x200a or LE Set Extended Advertising Enable 0x2039, answered with status 0); nil while none was.
    private(set) var advertising: Bool?
    /// What the last advertising enable sent asked for, until its answer.
    private var askedAdvertising: Bool?

    static let advertisingEnables: Set<UInt16> = [0x200a, 0x2039]

    init(index: UInt16) { self.index = index }

    /// Takes one monitor frame seen at `time`.
    mutating func add(_ frame: [UInt8], at time: ContinuousClock.Instant) {
        guard let header = HCIMonitorChannel.header(frame), header.index == index else { return }
        lastFrame = time
        switch HCIMonitorChannel.Opcode(rawValue: header.opcode) {
        case .commandSent:
            guard let opcode = HCIMonitorChannel.commandOpcode(frame) else { return }
            pending.append((opcode, time))
            // The parameters follow the opcode and their length; the enable flag is the first.
            if Self.advertisingEnables.contains(opcode), frame.count >= 10 { askedAdvertising = frame[9] != 0 }
        case .event:
            guard let opcode = HCIMonitorChannel.answeredOpcode(frame) else { return }
            if let answered = pending.firstIndex(where: { $0.opcode == opcode }) { pending.remove(at: answered) }
            // Its status: a Command Complete's (0x0e) follows the opcode, a Command Status's (0x0f) comes first.
            let status = frame[6] == 0x0e ? (frame.count >= 12 ? frame[11] : nil) : frame[8]
            if Self.advertisingEnables.contains(opcode), status == 0 { advertising = askedAdvertising }
        case .closeIndex:
            // The adapter went away: whatever it was asked is over.
            pending.removeAll()
        case nil:
            return
        }
    }

    /// Gives up the commands older than the command timeout at `now`.
    mutating func expire(at now: ContinuousClock.Instant) {
        while let oldest = pending.first, now - oldest.sent >= Self.commandTimeout {
            timedOut.append(oldest.opcode)
            pending.removeFirst()
        }
    }

    /// Nothing unanswered and no frame for `quiet`: the kernel has finished what it was doing with the adapter.
    func isSettled(at now: ContinuousClock.Instant, quiet: Duration) -> Bool {
        pending.isEmpty && lastFrame.map { now - $0 >= quiet } ?? true
    }
}
