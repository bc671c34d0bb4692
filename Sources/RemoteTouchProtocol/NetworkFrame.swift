/// The TCP transport's framing (seeds/ipad-trackpad-design.md: "length-prefixed JSON messages"), defined exactly
/// by this project: a 4-byte unsigned big-endian length `L`, then `L` bytes of UTF-8 JSON. `L` is 1 to
/// `maxLength`; a frame's JSON is a message object or an array of them (a batch). docs/protocol.md has the
/// golden vectors.
public enum NetworkFrame {
    /// The largest frame body: a 120 Hz batch of a dozen moves is under 1 KiB, a `text` message at most 512 bytes.
    public static let maxLength = 16_384
    public static let headerLength = 4

    /// The header and body of one frame.
    /// - Precondition: `body` is 1 to `maxLength` bytes (our own encoders never write more).
    public static func encode(_ body: [UInt8]) -> [UInt8] {
        precondition(!body.isEmpty && body.count <= maxLength, "frame body of \(body.count) bytes")
        let length = UInt32(body.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
    }

    /// The body of the one frame `bytes` hold exactly (a header announcing 1 to `maxLength` bytes, then that
    /// many), or nil when they hold anything else (part of a frame, several, a bad header): the usual TCP read,
    /// handled without a `Reader`'s copies.
    public static func soleFrame(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard bytes.count > headerLength else { return nil }
        let length = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard length <= maxLength, bytes.count == headerLength + length else { return nil }
        return bytes[headerLength...]
    }

    /// Splits a byte stream into frame bodies as bytes arrive.
    public struct Reader: Sendable {
        private var buffer: [UInt8] = []
        private var start = 0

        public init() {}

        /// What the stream holds next.
        public enum Next: Sendable, Equatable {
            case frame([UInt8])
            /// A header announcing `length` bytes, 0 or over `maxLength`: the stream cannot be followed past it.
            case badLength(UInt32)
        }

        /// Bytes received and not yet part of a whole frame.
        public var pending: Int { buffer.count - start }

        public mutating func append(_ bytes: some Collection<UInt8>) {
            if start > 4096 && start * 2 > buffer.count {
                buffer.removeFirst(start)
                start = 0
            }
            buffer.append(contentsOf: bytes)
        }

        /// The next whole frame, a bad header, or nil until more bytes arrive.
        public mutating func next() -> Next? {
            guard pending >= NetworkFrame.headerLength else { return nil }
            let length = buffer[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard length >= 1 && length <= UInt32(NetworkFrame.maxLength) else { return .badLength(length) }
            let end = start + 4 + Int(length)
            guard buffer.count >= end else { return nil }
            defer { start = end }
            return .frame(Array(buffer[start + 4..<end]))
        }
    }
}

/// How the TCP transport is found and reached (seeds/ipad-trackpad-design.md, "Network Communication").
public enum NetworkService {
    /// The Bonjour service type, published through avahi-daemon.
    public static let type = "_claude-controller._tcp"
    public static let port: UInt16 = 51423
    /// TXT `protocol=`: this framing and message set (docs/protocol.md).
    public static let protocolVersion = "1"
}

/// seeds/connectivity-layer.md's Wi-Fi mode: 5-byte `UDPPacket`s for movement on one port, and a TCP control
/// connection (this project's framed `PhoneMessage`s, the tcp transport's protocol) on another. The seed's example
/// ports are the defaults.
public enum MovementService {
    /// UDP: movement packets (0xAA).
    public static let udpPort: UInt16 = 8888
    /// TCP: the control connection (pairing, clicks and buttons, keys, configuration, status, the UDP binding).
    public static let controlPort: UInt16 = 8889
}
