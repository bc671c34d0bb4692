import CommandMapping
import RemoteTouchProtocol

/// What the libFuzzer target (`hil-fuzz`) does with each input by default (`FuzzTarget.all`): every decoder of
/// bytes that cross the link, and the invariants that must hold for whatever they accept. The BLE command, the
/// pairing code and states and the status are here; the HID report, the UDP packet and the TCP control path
/// are the targets of their own (`HIDFuzz`, `UDPFuzz`, `ControlFuzz`), which this runs too. A violated
/// invariant traps (a crash libFuzzer keeps); a refusal is the expected answer to bad input.
package enum DecoderFuzz {
    package static func run(_ bytes: [UInt8]) {
        // The computer's fast path decides nothing the strict parser would not: what it accepts, the strict
        // parser decodes to the same command, bit for bit.
        if let streamed = bytes.withUnsafeBufferPointer(Command.decodeStreamed) {
            guard let strict = try? Command.decodeStrictly(bytes) else {
                fatalError("the fast path accepted what the strict parser refuses: \(String(decoding: bytes, as: UTF8.self))")
            }
            precondition(CommandBits(streamed) == CommandBits(strict), "the fast path read \(streamed), the strict parser \(strict)")
        }
        if let command = try? Command.decode(bytes) {
            // What the computer accepts encodes again, and the encoding decodes to the same command, unless the
            // encoding outgrows an attribute: JSONEncoder escapes "/" as "\/", so a text accepted near 512 bytes
            // can encode longer (found by this fuzzer; Fuzz/corpus/crash-d629e74e…). A phone's payload is its own
            // encoding, so it is the phone that must keep within 512 bytes.
            let encoded = command.encoded()
            if encoded.count <= RemoteTouchService.maxAttributeLength {
                guard let again = try? Command.decode(encoded) else {
                    fatalError("an accepted command does not decode from its own encoding: \(String(decoding: encoded, as: UTF8.self))")
                }
                precondition(again == command, "round trip changed \(command) into \(again)")
            }
            precondition(encoded.count <= 4 * bytes.count + 64, "an accepted command of \(bytes.count) bytes encodes to \(encoded.count)")
            // And every mode maps it to frames or refuses it, without trapping.
            for mode in ControlMode.allCases {
                var mapper = CommandMapper(mode: mode)
                _ = try? mapper.map(command)
                _ = mapper.releaseAll()
            }
        }
        if let code = try? PairingCode.decode(bytes) {
            precondition(code.encoded() == bytes, "a pairing code does not encode to the bytes it came from")
        }
        if let status = try? PairingStatus.decode(bytes) {
            precondition((try? PairingStatus.decode(status.encoded())) == status, "pairing status round trip")
        }
        if let status = try? StatusData.decode(bytes) {
            precondition((try? StatusData.decode(status.encoded())) != nil, "status round trip")
        }
        HIDFuzz.run(bytes)
        UDPFuzz.run(bytes)
        ControlFuzz.run(bytes)
    }
}

/// A streamed command's numbers by their bits (so -0 and 0 differ), for comparing the two decoders.
struct CommandBits: Equatable {
    let name: String
    let numbers: [UInt64]

    init(_ command: Command) {
        name = command.name
        switch command {
        case .cursorMove(let delta), .dragMove(let delta): numbers = [delta.x.bitPattern, delta.y.bitPattern]
        case .scroll(let dx, let dy): numbers = [dx.bitPattern, dy.bitPattern]
        case .pinch(let scale): numbers = [scale.bitPattern]
        default: numbers = []
        }
    }
}
