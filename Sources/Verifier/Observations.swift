package import InputCodes
package import RemoteTouchProtocol

/// A status notification the phone received, with its CLOCK_MONOTONIC arrival time.
package struct StatusObservation: Sendable, Hashable {
    package var at: MonotonicTime
    package var status: StatusData

    package init(at: MonotonicTime, status: StatusData) {
        self.at = at
        self.status = status
    }
}

/// A write the computer received (from its receipts): the command's name when it decodes, and whether the
/// computer refused it.
package struct ReceivedWrite: Sendable, Hashable {
    package var at: MonotonicTime
    package var command: String?
    package var refused: Bool

    package init(at: MonotonicTime, command: String?, refused: Bool) {
        self.at = at
        self.command = command
        self.refused = refused
    }
}

/// What a link step did: whether the phone ends up connected, its tries, when it reached that (from the
/// step's start), what the computer still held after the link went down, and for a bluetoothd restart when it
/// served again.
package struct LinkObservation: Sendable, Hashable {
    package var connected: Bool
    package var attempts: Int
    package var elapsedMs: Double
    /// What happened, for the step's message.
    package var summary: String
    /// Set when the step could not act at all (e.g. `reconnect` while connected): a failure.
    package var refusal: String?
    /// What the uinput device still held after the link went down (R12 releases everything).
    package var stillHeld: [String] = []
    /// restartBluetoothd: from bluetoothd's start until the computer's advertisement was active again.
    package var servingMs: Double?
    /// Whether the link went down at all (false: a radio blackout it lived through).
    package var wentDown = true

    package init(connected: Bool, attempts: Int, elapsedMs: Double, summary: String, refusal: String? = nil,
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
package struct PairingObservation: Sendable, Hashable {
    package var refusal: String?
    package var status: PairingStatus

    package init(refusal: String?, status: PairingStatus) {
        self.refusal = refusal
        self.status = status
    }
}

/// The phone's remembered computers after connecting (R6).
package struct DevicesObservation: Sendable, Hashable {
    package var addresses: [String]
    package var connected: String
    package var evicted: String?

    package init(addresses: [String], connected: String, evicted: String?) {
        self.addresses = addresses
        self.connected = connected
        self.evicted = evicted
    }
}

/// A pairing lockout as the phone can bound it: the computer locked no later than `lockedBy` (when the answer
/// to the locking code arrived), for `lockout` (the scenario's `run.lockoutSeconds`).
package struct LockoutWindow: Sendable, Hashable {
    package var lockedBy: MonotonicTime
    package var lockout: Duration

    package init(lockedBy: MonotonicTime, lockout: Duration) {
        self.lockedBy = lockedBy
        self.lockout = lockout
    }
}
