import RemoteTouchProtocol
/// Integers read from a fuzz input, little-endian, in order; past its end the input reads as zeros, so every
/// input (the empty one too) gives values and a short input gives small ones.
struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func byte() -> UInt8 {
        defer { offset += 1 }
        return offset < bytes.count ? bytes[offset] : 0
    }

    /// Any Int, `Int.min` and `Int.max` included: the next 8 bytes.
    mutating func int() -> Int {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return Int(truncatingIfNeeded: value)
    }

    /// An Int in -limit…limit: the next 3 bytes as a signed 24-bit value, remainder by limit + 1 (the sign kept),
    /// so values up to the limit read as themselves.
    mutating func int(magnitude limit: Int) -> Int {
        let raw = UInt32(byte()) | UInt32(byte()) << 8 | UInt32(byte()) << 16
        return Int(Int32(bitPattern: raw << 8) >> 8) % (limit + 1)
    }
}

/// Bytes as hex, for a broken invariant's message.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    PointerPayload.hex(Array(bytes))
}
