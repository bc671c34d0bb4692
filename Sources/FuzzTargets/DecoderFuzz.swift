import CommandMapping
import RemoteTouchProtocol

/// What the libFuzzer target (`hil-fuzz`) does with each input: every decoder of bytes that cross the link, and
/// the invariants that must hold for whatever they accept. A violated invariant traps (a crash libFuzzer
/// keeps); a refusal is the expected answer to bad input.
public enum DecoderFuzz {
    public static func run(_ bytes: [UInt8]) {
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
        if let report = try? HIDReport.decode(bytes) {
            precondition(report.encoded() == bytes, "HID report round trip")
        }
        if let packet = try? UDPPacket.decode(bytes) {
            precondition((try? UDPPacket.decode(packet.encoded())) == packet, "UDP packet round trip")
        }
        network(bytes)
    }

    /// The TCP transport: the input as a frame body (a message or a batch) and as a byte stream of frames.
    static func network(_ bytes: [UInt8]) {
        if let messages = try? PhoneMessage.decodeFrame(bytes) {
            precondition(!messages.isEmpty && messages.count <= PhoneMessage.maxBatch, "a frame of \(messages.count) messages")
            // What the computer accepts encodes again to a frame that decodes to the same messages.
            let body = PhoneMessage.frameBody(messages)
            if body.count <= NetworkFrame.maxLength {
                guard let again = try? PhoneMessage.decodeFrame(body) else {
                    fatalError("accepted messages do not decode from their own encoding: \(String(decoding: body, as: UTF8.self))")
                }
                precondition(again == messages, "message round trip changed \(messages) into \(again)")
            }
        }
        if let message = try? ComputerMessage.decode(bytes) {
            precondition((try? ComputerMessage.decode(message.frame().dropFirst(NetworkFrame.headerLength))) != nil, "computer message round trip")
        }
        // As a stream: the reader returns whole frames that add up to what it was given, or stops at a bad header.
        var reader = NetworkFrame.Reader()
        reader.append(bytes)
        var consumed = 0
        while let next = reader.next() {
            guard case .frame(let body) = next else { break }
            consumed += NetworkFrame.headerLength + body.count
            precondition(body.count >= 1 && body.count <= NetworkFrame.maxLength, "a frame of \(body.count) bytes")
        }
        precondition(consumed + reader.pending == bytes.count, "the reader lost bytes")
    }
}
