/// Every wire format the computer takes (docs/protocol.md), for tools that are handed bytes and must say which
/// format they are: a JSON command (ble, hid), a 6-byte HID report (hid), a 5-byte UDP packet (udp), a TCP frame
/// (tcp and udp's control connection). Each is decoded by the product's own decoder, as the computer decodes it.
package enum WireFormat: String, Sendable, Hashable, CaseIterable {
    case json, hid, udp, tcp

    /// What the format is called in messages: `JSON command`, `HID report`, `UDP packet`, `TCP frame`.
    package var title: String {
        switch self {
        case .json: "JSON command"
        case .hid: "HID report"
        case .udp: "UDP packet"
        case .tcp: "TCP frame"
        }
    }
}

/// A payload decoded in one of the wire formats.
package enum WirePayload: Sendable, Hashable {
    /// A RemoteTouch command (the command characteristic).
    case command(Command)
    /// A report on the report characteristic, as the computer takes it.
    case report(HIDReport, PointerInput)
    /// A movement packet from a bound UDP source, as the computer takes it.
    case packet(UDPPacket, PointerInput)
    /// One or more whole TCP frames, each a message or a batch of them.
    case frames([[PhoneMessage]])

    /// Decodes `bytes` as `format`, with the decoder the computer uses for it: `Command.decode`,
    /// `PointerPayload.decode` (which also refuses a 0xBB control packet over UDP), `NetworkFrame.Reader` then
    /// `PhoneMessage.decodeFrame`. `framed: false` takes TCP bytes as one frame's body (JSON text, no length header).
    package static func decode(_ bytes: [UInt8], as format: WireFormat, framed: Bool = true) throws(ProtocolError) -> WirePayload {
        switch format {
        case .json:
            return .command(try Command.decode(bytes))
        case .hid:
            let input = try PointerPayload.decode(bytes, format: .hid)
            return .report(try HIDReport.decode(bytes), input)
        case .udp:
            let input = try PointerPayload.decode(bytes, format: .udp)
            return .packet(try UDPPacket.decode(bytes), input)
        case .tcp:
            return .frames(framed ? try frames(bytes) : [try PhoneMessage.decodeFrame(bytes)])
        }
    }

    /// What `detect` found: the one format the bytes decode as, several (say which with a format), or none, with
    /// each format's reason.
    package enum Detection: Sendable {
        case decoded(WireFormat, WirePayload)
        case ambiguous([(WireFormat, WirePayload)])
        case refused([(WireFormat, ProtocolError)])
    }

    /// Tries each of `formats` on `bytes`.
    package static func detect(_ bytes: [UInt8], among formats: [WireFormat] = WireFormat.allCases, framed: Bool = true) -> Detection {
        var decoded: [(WireFormat, WirePayload)] = []
        var refused: [(WireFormat, ProtocolError)] = []
        for format in formats {
            do {
                decoded.append((format, try decode(bytes, as: format, framed: framed)))
            } catch {
                refused.append((format, error))
            }
        }
        switch decoded.count {
        case 1: return .decoded(decoded[0].0, decoded[0].1)
        case 0: return .refused(refused)
        default: return .ambiguous(decoded)
        }
    }

    /// Whole frames back to back, each decoded; a bad length header, a cut frame or bytes after the last whole
    /// frame refuse the lot, as the computer would stop following the stream.
    private static func frames(_ bytes: [UInt8]) throws(ProtocolError) -> [[PhoneMessage]] {
        var reader = NetworkFrame.Reader()
        reader.append(bytes)
        var frames: [[PhoneMessage]] = []
        while true {
            switch reader.next() {
            case .frame(let body)?:
                frames.append(try PhoneMessage.decodeFrame(body))
            case .badLength(let length)?:
                throw ProtocolError(
                    .malformedBinary, payload: "TCP frame",
                    "the 4-byte big-endian length header announces \(length) bytes, outside 1…\(NetworkFrame.maxLength)")
            case nil:
                guard reader.pending == 0 else {
                    let rest = bytes.suffix(reader.pending)
                    let where_ = frames.isEmpty ? "" : " after \(frames.count) whole frame(s)"
                    guard rest.count >= NetworkFrame.headerLength else {
                        throw ProtocolError(
                            .malformedBinary, payload: "TCP frame", "\(rest.count) byte(s)\(where_): shorter than the 4-byte length header")
                    }
                    let length = rest.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                    throw ProtocolError(
                        .malformedBinary, payload: "TCP frame",
                        "the frame\(where_) announces \(length) bytes after its header and has \(rest.count - NetworkFrame.headerLength)")
                }
                guard !frames.isEmpty else {
                    throw ProtocolError(.malformedBinary, payload: "TCP frame", "no bytes")
                }
                return frames
            }
        }
    }
}
