extension StatusError {
    /// Every code the computer gives a refusal: in a status's `error`, in the network transports' `error` message,
    /// or (`unboundSource`) only in its log and receipts. docs/protocol.md, "Error codes", is this list with which
    /// failure produces each; `ProtocolDocTests` holds the two together.
    ///
    /// `StatusError.code` stays a string, so a reader built against this list keeps working when a code is added.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A command that does not decode (ble), or that cannot be mapped (text a US layout cannot type).
        case invalidCommand
        /// A command, report, `bindUDP` or pinch message from a session that is not paired.
        case notPaired
        /// A pairing code that is not the one shown; attempts remain.
        case wrongCode
        /// The third wrong code, or a pairing attempt while pairing is locked.
        case lockedOut
        /// A pairing code entered after the one shown expired.
        case codeExpired
        /// A pairing code entered when none is shown (no pairing read or `pairingRequest` first).
        case noCode
        /// The command was valid but the uinput write failed.
        case injectionFailed
        /// A 6-byte HID report or a bound 5-byte UDP packet that does not decode.
        case invalidReport
        /// A TCP frame that does not decode as a message or a batch.
        case invalidFrame
        /// A frame with a timestamp earlier than the connection's latest.
        case nonMonotonic
        /// A frame header outside 1…16384: the computer closes the connection after it.
        case badFrame
        /// `bindUDP` on a computer that takes no UDP movement there (the tcp transport).
        case noUDP
        /// The computer closes the connection (the phone connected again, or the computer stops).
        case closing
        /// A UDP packet from a source no paired control session bound: logged and in the receipts, never sent.
        case unboundSource

        /// The transports on which a phone can meet this code (`ble`, `hid`, `tcp`, `udp`).
        public var transports: [String] {
            switch self {
            case .invalidCommand, .notPaired, .wrongCode, .lockedOut, .codeExpired, .noCode, .injectionFailed:
                ["ble", "hid", "tcp", "udp"]
            case .invalidReport: ["hid", "udp"]
            case .invalidFrame, .badFrame, .nonMonotonic, .closing: ["tcp", "udp"]
            case .noUDP: ["tcp"]
            case .unboundSource: ["udp"]
            }
        }
    }

    /// A refusal with one of the computer's own codes.
    public init(_ code: Code, _ message: String) {
        self.init(code: code.rawValue, message: message)
    }
}
