public import InputCodes
public import RemoteTouchProtocol

/// A status notification the phone received, with its CLOCK_MONOTONIC arrival time.
public struct StatusObservation: Sendable, Hashable {
    public var at: MonotonicTime
    public var status: StatusData

    public init(at: MonotonicTime, status: StatusData) {
        self.at = at
        self.status = status
    }
}

/// A write the computer received (from its receipts): the command's name when it decodes, and whether the
/// computer refused it.
public struct ReceivedWrite: Sendable, Hashable {
    public var at: MonotonicTime
    public var command: String?
    public var refused: Bool

    public init(at: MonotonicTime, command: String?, refused: Bool) {
        self.at = at
        self.command = command
        self.refused = refused
    }
}

/// What a link step did: whether the phone ends up connected, its tries, when it reached that (from the
/// step's start), what the computer still held after the link went down, and for a bluetoothd restart when it
/// served again.
public struct LinkObservation: Sendable, Hashable {
    public var connected: Bool
    public var attempts: Int
    public var elapsedMs: Double
    /// What happened, for the step's message.
    public var summary: String
    /// Set when the step could not act at all (e.g. `reconnect` while connected): a failure.
    public var refusal: String?
    /// What the uinput device still held after the link went down (R12 releases everything).
    public var stillHeld: [String] = []
    /// restartBluetoothd: from bluetoothd's start until the computer's advertisement was active again.
    public var servingMs: Double?

    public init(connected: Bool, attempts: Int, elapsedMs: Double, summary: String, refusal: String? = nil,
                stillHeld: [String] = [], servingMs: Double? = nil)
    {
        self.connected = connected
        self.attempts = attempts
        self.elapsedMs = elapsedMs
        self.summary = summary
        self.refusal = refusal
        self.stillHeld = stillHeld
        self.servingMs = servingMs
    }
}

/// What a `pair` step saw: whether the computer refused the code (with the reason) and the state it reports.
public struct PairingObservation: Sendable, Hashable {
    public var refusal: String?
    public var status: PairingStatus

    public init(refusal: String?, status: PairingStatus) {
        self.refusal = refusal
        self.status = status
    }
}

/// The phone's remembered computers after connecting (R6).
public struct DevicesObservation: Sendable, Hashable {
    public var addresses: [String]
    public var connected: String
    public var evicted: String?

    public init(addresses: [String], connected: String, evicted: String?) {
        self.addresses = addresses
        self.connected = connected
        self.evicted = evicted
    }
}

/// A pairing lockout as the phone can bound it: the computer locked no later than `lockedBy` (when the answer
/// to the locking code arrived), for `lockout` (the scenario's `run.lockoutSeconds`).
public struct LockoutWindow: Sendable, Hashable {
    public var lockedBy: MonotonicTime
    public var lockout: Duration

    public init(lockedBy: MonotonicTime, lockout: Duration) {
        self.lockedBy = lockedBy
        self.lockout = lockout
    }
}
