package import GestureModel
package import RemoteTouchProtocol

/// What a link step expects: the phone reconnects (within `withinMs` of the step's start, in at most
/// `attemptsAtMost` tries), or gives up and shows "disconnected" (R12).
package struct LinkExpectation: Sendable, Hashable {
    package enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// The link went down and the phone connected again.
        case reconnected
        case disconnected
        /// The link never went down (a radio blackout shorter than the supervision timeout).
        case stayedUp
    }

    package var outcome: Outcome
    package var attemptsAtMost: Int?
    package var withinMs: Double?
    /// restartBluetoothd: from bluetoothd's start until the computer serves again (its application registered
    /// and its advertisement active), at most this long.
    package var servingWithinMs: Double?

    package init(outcome: Outcome, attemptsAtMost: Int? = nil, withinMs: Double? = nil, servingWithinMs: Double? = nil) {
        self.outcome = outcome
        self.attemptsAtMost = attemptsAtMost
        self.withinMs = withinMs
        self.servingWithinMs = servingWithinMs
    }
}

/// The status notifications (R5) the phone must receive during a step: at least `atLeast`, one every
/// `everyMs` (± `toleranceMs`, times the rig's latency scale) between consecutive ones, each with a battery level
/// 0–100 (and this one, when `batteryLevel` is given).
package struct StatusExpectation: Sendable, Hashable {
    package var atLeast: Int
    package var everyMs: Double?
    package var toleranceMs: Double
    package var batteryLevel: Int?
    /// Error codes an error status must bring during the step, each at least once (`"errors": ["notPaired"]`: a refusal
    /// reaches the phone, docs/protocol.md "Error codes").
    package var errors: [String] = []

    package init(atLeast: Int, everyMs: Double? = nil, toleranceMs: Double = 250, batteryLevel: Int? = nil) {
        self.atLeast = atLeast
        self.everyMs = everyMs
        self.toleranceMs = toleranceMs
        self.batteryLevel = batteryLevel
    }
}

/// What a `pair` step must lead to (R4): the pairing state the phone reads afterwards, the attempts left, and
/// whether the computer refused the code.
package struct PairingExpectation: Sendable, Hashable {
    package var state: PairingStatus.State
    package var attemptsRemaining: Int?
    package var refused: Bool?
    /// The code shown (or the lockout) has at most this many seconds left (`secondsRemaining`, rounded up): a code is
    /// valid 60 s from when it was shown, and reading it again does not renew it.
    package var secondsRemainingAtMost: Int?

    package init(state: PairingStatus.State, attemptsRemaining: Int? = nil, refused: Bool? = nil) {
        self.state = state
        self.attemptsRemaining = attemptsRemaining
        self.refused = refused
    }
}

/// What the phone's remembered computers must be after it connected (R6: at most 5, oldest evicted).
package struct DevicesExpectation: Sendable, Hashable {
    package var count: Int?
    /// Addresses that must have been evicted.
    package var evicted: [String]

    package init(count: Int? = nil, evicted: [String] = []) {
        self.count = count
        self.evicted = evicted
    }
}

/// Scenario-wide latency limits (before the rig's latency scale).
package struct LatencyLimits: Sendable, Hashable {
    package var p95Ms: Double?
    package var maxMs: Double?

    package init(p95Ms: Double? = nil, maxMs: Double? = nil) {
        self.p95Ms = p95Ms
        self.maxMs = maxMs
    }
}

/// Everything one scenario step expects, of every kind; each part is optional.
package struct StepExpectations: Sendable, Hashable {
    /// What comes out of the uinput device, and by when.
    package var events: StepExpectation?
    /// A link step's outcome (R12).
    package var link: LinkExpectation?
    /// Whether the phone is idle or active when the step ends (R11).
    package var phone: Activity?
    /// The status notifications the phone receives during the step (R5).
    package var status: StatusExpectation?
    /// How many commands of each kind the computer received while the step ran (R11.2); `refused` counts refusals.
    package var received: [String: Int]?
    /// What a `pair` step's code does (R4).
    package var pairing: PairingExpectation?

    package init(events: StepExpectation? = nil, link: LinkExpectation? = nil, phone: Activity? = nil,
                status: StatusExpectation? = nil, received: [String: Int]? = nil, pairing: PairingExpectation? = nil)
    {
        self.events = events
        self.link = link
        self.phone = phone
        self.status = status
        self.received = received
        self.pairing = pairing
    }

    /// How many checks the step makes.
    package var count: Int {
        [events != nil, link != nil, phone != nil, status != nil, received != nil, pairing != nil].filter { $0 }.count
    }

    package var isEmpty: Bool { count == 0 }
}
