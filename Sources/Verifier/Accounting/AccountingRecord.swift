package import InputCodes
package import Records

/// What a scenario's run hands the accounting oracle (`CommandAccounting`): every write the phone sent, every write
/// the computer received (its receipts), every frame its input device showed, and what happened to the link and
/// the pairing, all on CLOCK_MONOTONIC in nanoseconds.
package struct AccountingRecord: Sendable {
    /// A write the phone handed to its link, as the receipts show it (`{"tap":…}`, `hid 010a00000000`, `udp …`).
    package struct Sent: Sendable, Hashable {
        package var at: UInt64
        package var payload: String
        /// The step that sent it.
        package var step: Int

        package init(at: UInt64, payload: String, step: Int) {
            self.at = at
            self.payload = payload
            self.step = step
        }
    }

    /// What changes what the computer must do, besides the writes.
    package enum Event: Sendable, Hashable {
        /// The phone paired (its code accepted): from now on its writes must be taken.
        case paired
        /// The link went down (a drop, a partition, the user's disconnect, a bluetoothd restart): the computer must
        /// let go of what it holds, and what was still on its way may be lost.
        case linkDown
        /// The computer's app stopped and started again: a new input device, a new mapper (a new mode, no remainders).
        case computerRestarted
        /// The network between the hosts starts (true) or stops (false) losing packets: udp movement may be lost.
        case networkLoss(Bool)
    }

    package var sends: [Sent]
    package var receipts: [ReceiptLine]
    package var frames: [EvdevFrame]
    /// Each with its time and the step it happened in.
    package var events: [(at: UInt64, step: Int, event: Event)]
    /// The phone paired before the steps (`run.pairing: "pair"`).
    package var pairedFromStart: Bool

    package init(sends: [Sent], receipts: [ReceiptLine], frames: [EvdevFrame], events: [(at: UInt64, step: Int, event: Event)],
                 pairedFromStart: Bool)
    {
        self.sends = sends
        self.receipts = receipts
        self.frames = frames
        self.events = events
        self.pairedFromStart = pairedFromStart
    }
}

/// A problem the accounting found, with the step it belongs to (nil: the scenario's).
package struct AccountingProblem: Sendable, Hashable {
    package var step: Int?
    package var text: String

    package init(step: Int?, _ text: String) {
        self.step = step
        self.text = text
    }
}
