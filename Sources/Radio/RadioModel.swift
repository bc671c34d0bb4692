/// How the bridge times host→controller ACL data.
package struct RadioModel: Sendable, Hashable {
    package enum Timing: Sendable, Hashable {
        /// Every packet goes on at once (btvirt's own behaviour, with the bridge in the path: its cost alone).
        case immediate
        /// Each packet waits for its link's next connection event: one event per interval from the link's anchor, at
        /// most `packetsPerEvent` packets in one; the host is told the controller has `buffers` ACL buffers.
        case connectionEvents(packetsPerEvent: Int, buffers: UInt8)
    }

    package var timing: Timing
    /// Added to every packet's arrival before it may go (for calibrating the measurement with a known delay); 0 for
    /// none. In the immediate model a packet goes `extraDelay` after it came.
    package var extraDelayNanoseconds: Int64
    /// The interval the rig asked the hosts to negotiate, in 1.25 ms units: a link that reports another is logged.
    package var expectedIntervalUnits: UInt16?
    /// The chance that one transmission of a packet is not received (a CRC error), 0 ≤ P < 1; the link layer then
    /// sends it again (`ConnectionEventScheduler`): nothing is lost, it comes later. 0: an air with no errors.
    package var packetErrorRate = 0.0
    /// The seed of the draws that decide which transmissions fail, so a run repeats.
    package var errorSeed: UInt64 = 0x7261_6469_6F65_7272 // "radioerr"

    /// One exchange within a connection event: the packet (a 27-byte payload at the 1M PHY, 296 µs), T_IFS, the
    /// peer's empty acknowledgement (80 µs), T_IFS: where a packet sent again in the same event goes after a failure.
    package static let exchangeNanoseconds: Int64 = 676_000

    package init(timing: Timing, extraDelayNanoseconds: Int64 = 0, expectedIntervalUnits: UInt16? = nil) {
        precondition(extraDelayNanoseconds >= 0, "a delay is not negative")
        if case .connectionEvents(let perEvent, let buffers) = timing {
            precondition(perEvent >= 1 && Int(buffers) >= perEvent, "an event carries 1...buffers packets")
        }
        self.timing = timing
        self.extraDelayNanoseconds = extraDelayNanoseconds
        self.expectedIntervalUnits = expectedIntervalUnits
    }

    /// Packets an event carries by default. Our streams need about one and a half per 15 ms event (100 Hz), three per
    /// 30 ms one; 6 leaves room for a gesture's burst without making the model a pipe of unlimited width. A real
    /// controller carries as many as fit in the event (its length, the data length, the peer's MD bit); phones'
    /// stacks often allow fewer. Lower it (`--packets-per-event`) to see queueing across events.
    package static let defaultPacketsPerEvent = 6

    /// The ACL buffers the host is told of: two events' worth, so the host can hand over the next event's packets
    /// while this event's wait (beyond them the host's own queue holds packets, as with a real controller).
    package static func buffers(packetsPerEvent: Int) -> UInt8 { UInt8(min(255, 2 * packetsPerEvent)) }

    /// Whether packets never wait: the immediate model with no extra delay.
    var passesThrough: Bool { timing == .immediate && extraDelayNanoseconds == 0 }

    /// One interval unit, 1.25 ms.
    package static let nanosecondsPerUnit: Int64 = 1_250_000
}
