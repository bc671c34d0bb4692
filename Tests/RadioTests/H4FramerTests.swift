import Radio
import Testing

@Suite("H4 framing: packets cut from a byte stream")
struct H4FramerTests {
    /// One packet of each type, as the wire carries them.
    static let vectors: [(H4Packet.Kind, [UInt8])] = [
        (.command, [0x01, 0x03, 0x0c, 0x00]),  // HCI Reset
        (.acl, [0x02, 0x40, 0x00, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x52]),  // handle 0x040, 5 bytes
        (.sco, [0x03, 0x01, 0x00, 0x02, 0xaa, 0xbb]),
        (.event, [0x04, 0x0e, 0x04, 0x01, 0x03, 0x0c, 0x00]),  // Command Complete of HCI Reset
        (.iso, [0x05, 0x60, 0x40, 0x03, 0xc0, 0x01, 0x02, 0x03]),  // 14-bit length: 0xc003 & 0x3fff = 3
    ]

    @Test("each type alone, read whole", arguments: vectors.indices)
    func whole(_ index: Int) throws {
        let (kind, bytes) = Self.vectors[index]
        var framer = H4Framer(source: "test")
        let packets = try framer.append(bytes)
        #expect(packets.map(\.kind) == [kind])
        #expect(packets.map(\.bytes) == [bytes])
        #expect(framer.pendingCount == 0)
    }

    @Test("all five in one read come out in order")
    func severalInOneRead() throws {
        var framer = H4Framer(source: "test")
        let packets = try framer.append(Self.vectors.flatMap(\.1))
        #expect(packets.map(\.bytes) == Self.vectors.map(\.1))
    }

    @Test("a byte at a time: nothing until a packet is whole, then exactly it")
    func byteByByte() throws {
        var framer = H4Framer(source: "test")
        var out: [[UInt8]] = []
        for byte in Self.vectors.flatMap(\.1) {
            out += try framer.append([byte]).map(\.bytes)
        }
        #expect(out == Self.vectors.map(\.1))
        #expect(framer.pendingCount == 0)
    }

    @Test("a read ending inside the next packet's header keeps it for the next read")
    func splitHeader() throws {
        var framer = H4Framer(source: "test")
        let acl = Self.vectors[1].1, event = Self.vectors[3].1
        let stream = acl + event
        let first = try framer.append(stream.prefix(acl.count + 2))
        #expect(first.map(\.bytes) == [acl])
        #expect(framer.pendingCount == 2)
        #expect(try framer.append(stream.dropFirst(acl.count + 2)).map(\.bytes) == [event])
    }

    @Test("a byte that is no H4 type is an error naming the source")
    func badType() {
        var framer = H4Framer(source: "btvirt's socket /tmp/bt-server-le")
        #expect {
            _ = try framer.append([0x01, 0x03, 0x0c, 0x00, 0x07])
        } throws: { error in
            "\(error)".contains("btvirt's socket /tmp/bt-server-le sent 0x07")
        }
    }

    @Test("handles, event codes and opcodes are read from the header")
    func fields() throws {
        var framer = H4Framer(source: "test")
        let packets = try framer.append(Self.vectors.flatMap(\.1))
        #expect(packets[0].opcode == 0x0c03)
        #expect(packets[1].connectionHandle == 0x040)
        #expect(packets[3].eventCode == 0x0e)
        #expect(packets[4].connectionHandle == 0x060)
        #expect(packets[0].connectionHandle == nil && packets[1].eventCode == nil)
    }
}
