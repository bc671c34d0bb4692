/// Which decoders a fuzz input goes through. `hil-fuzz` reads its choice once from `HIL_FUZZ_TARGET`
/// (Fuzz/run.sh): one family at a time runs many times faster than all of them, so each can be given its own
/// count of executions. `all` is the union of the others, so a crash any target finds is a crash of `all`
/// too, and the corpus replay (`swift run hil-fuzz Fuzz/corpus`, the tests' `DecoderFuzz.run`) keeps it fixed.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// BLE's 6-byte HID mouse report, its mapping by the computer, `PointerInput.reports` (`HIDFuzz`).
    case hid
    /// The WiFi 5-byte UDP packet, its mapping by the computer, the splitting of a movement into packets (`UDPFuzz`).
    case udp
    /// The TCP control path: frame bodies, the stream of frames, the computer's replies (`ControlFuzz`).
    case control
    /// Every decoder of what crosses the link, the BLE commands and pairing included (`DecoderFuzz`).
    case all

    package static let environmentVariable = "HIL_FUZZ_TARGET"

    /// The target an environment value names; unset or empty is `all`, anything unknown nil.
    package init?(environment value: String?) {
        guard let value, !value.isEmpty else {
            self = .all
            return
        }
        self.init(rawValue: value)
    }

    /// `hid|udp|control|all`, for messages.
    package static var choices: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// One input through this target's decoders; a broken invariant traps.
    package func run(_ bytes: [UInt8]) {
        switch self {
        case .hid: HIDFuzz.run(bytes)
        case .udp: UDPFuzz.run(bytes)
        case .control: ControlFuzz.run(bytes)
        case .all: DecoderFuzz.run(bytes)
        }
    }
}
