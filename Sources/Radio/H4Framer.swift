/// Cuts a byte stream into H4 packets: a read may end inside a packet or hold several. btvirt's server socket is such
/// a stream; /dev/vhci gives one packet per read, which the framer takes the same way.
package struct H4Framer: Sendable {
    /// Bytes of a packet not complete yet.
    private var pending: [UInt8] = []
    /// Where the bytes come from, for the error ("btvirt's socket /tmp/bt-server-le").
    package let source: String

    package init(source: String) {
        self.source = source
    }

    /// How many bytes wait for the rest of their packet.
    package var pendingCount: Int { pending.count }

    /// Appends what was read and returns every packet it completes, in order.
    /// - Throws: `RadioError` `.framing` when a packet starts with a byte that is no H4 type: the stream cannot be
    ///   followed past it.
    package mutating func append(_ bytes: some Collection<UInt8>) throws(RadioError) -> [H4Packet] {
        pending.append(contentsOf: bytes)
        var packets: [H4Packet] = []
        var start = 0
        while start < pending.count {
            guard let kind = H4Packet.Kind(rawValue: pending[start]) else {
                let byte = pending[start]
                pending.removeAll()
                throw RadioError(.framing, "\(source) sent 0x\(hex(UInt16(byte), 2)) where an H4 packet type (0x01 to 0x05) was due",
                                 hint: "the stream is out of step; restart the bridge (and btvirt)")
            }
            let header = kind.header
            guard pending.count - start > header.size else { break }
            var length = Int(pending[start + 1 + header.lengthOffset])
            if header.lengthBytes == 2 { length |= Int(pending[start + 2 + header.lengthOffset]) << 8 }
            let total = 1 + header.size + (length & header.lengthMask)
            guard pending.count - start >= total else { break }
            packets.append(H4Packet(bytes: Array(pending[start..<(start + total)])))
            start += total
        }
        pending.removeFirst(start)
        return packets
    }
}
