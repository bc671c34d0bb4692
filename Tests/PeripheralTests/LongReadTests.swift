import DBus
import Foundation
@testable import Peripheral
import RemoteTouchProtocol
import Testing

/// Reads in parts, as bluetoothd makes them of a Read Request and Read Blobs: `ReadValue` with an `offset` option,
/// whose answer bluetoothd cuts to MTU−1 bytes.
@Suite("A long read: ReadValue honours its offset, and a Read Blob continues the value the central read first")
struct LongReadTests {
    /// ReadValue's options as bluetoothd sends them (`offset` a uint16 in a variant, beside `device` and `mtu`).
    static func options(offset: UInt16?, device: String = "/org/bluez/hci0/dev_00_AA_01_01_00_42") -> DBusValue {
        var entries = [DBusDictionaryEntry(.string("device"), .variant(.objectPath(device))),
                       DBusDictionaryEntry(.string("mtu"), .variant(.uint16(23)))]
        if let offset { entries.append(DBusDictionaryEntry(.string("offset"), .variant(.uint16(offset)))) }
        return .dictionary(keySignature: "s", valueSignature: "v", entries)
    }

    /// What a central at `mtu` reads as ATT does it: a Read, then Read Blobs while a part is full (MTU−1 bytes).
    static func readAll(_ reads: inout LongRead, by central: String, mtu: Int,
                        fresh: () -> [UInt8]) throws -> (value: [UInt8], parts: [Int])
    {
        var value: [UInt8] = [], parts: [Int] = []
        while true {
            let part = Array(try reads.read(by: central, at: value.count, fresh: fresh).prefix(mtu - 1))
            value += part
            parts.append(part.count)
            if part.count < mtu - 1 || value.count > 512 { return (value, parts) }
        }
    }

    @Test("the offset option: absent is 0, a variant's uint16 is read")
    func offsetOption() {
        #expect(LongRead.offset(Self.options(offset: nil)) == 0)
        #expect(LongRead.offset(Self.options(offset: 22)) == 22)
        #expect(LongRead.offset(.dictionary(keySignature: "s", valueSignature: "v", [])) == 0)
    }

    @Test("a part starts at the offset; at the end it is empty; past the end is org.bluez.Error.InvalidOffset")
    func parts() throws {
        let value = Array(0..<30).map(UInt8.init)
        #expect(try LongRead.part(of: value, from: 0) == value)
        #expect(try LongRead.part(of: value, from: 22) == Array(22..<30).map(UInt8.init))
        #expect(try LongRead.part(of: value, from: 30) == [])
        #expect(throws: DBusError(name: "org.bluez.Error.InvalidOffset", message: "offset 31 is past the value's end (30 bytes)")) {
            try LongRead.part(of: value, from: 31)
        }
        #expect(try LongRead.part(of: [1, 0, 0, 0, 0, 0], from: 6) == [], "the report characteristic's 6 bytes")
    }

    @Test("the pairing read comes whole in parts of MTU−1 bytes and decodes, at MTU 23, 185 and 517",
          arguments: [23, 185, 517])
    func pairingAtSmallMTU(mtu: Int) throws {
        let (host, _, _, folder) = try ComputerHostTests.host(devnode: nil)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var reads = LongRead()
        let central = "00:AA:01:01:00:42"
        let (value, parts) = try Self.readAll(&reads, by: central, mtu: mtu) { host.pairingRead(by: central) }
        let status = try PairingStatus.decode(value)
        #expect(status.state == .awaitingCode)
        #expect(status.attemptsRemaining == 3)
        #expect(value.count > 22, "the pairing value (\(value.count) bytes) needs a long read at MTU 23")
        #expect(parts.dropLast().allSatisfy { $0 == mtu - 1 })
        #expect(parts.reduce(0, +) == value.count)
    }

    @Test("a Read Blob continues the value read from offset 0 even when a fresh read would differ (seconds ticked)")
    func continuesTheFirstValue() throws {
        var reads = LongRead()
        var served = 0
        let values: [[UInt8]] = [Array(#"{"state":"awaitingCode","attemptsRemaining":3,"secondsRemaining":10}"#.utf8),
                                 Array(#"{"state":"awaitingCode","attemptsRemaining":3,"secondsRemaining":9}"#.utf8)]
        let fresh = { () -> [UInt8] in
            defer { served += 1 }
            return values[min(served, 1)]
        }
        let (value, _) = try Self.readAll(&reads, by: "A", mtu: 23, fresh: fresh)
        #expect(value == values[0])
        #expect(served == 1, "a Read Blob read the value afresh")
        // A new read from offset 0 takes the value of now, and its Read Blobs continue that one.
        let (again, _) = try Self.readAll(&reads, by: "A", mtu: 23, fresh: fresh)
        #expect(again == values[1])
    }

    @Test("two centrals reading at once each continue their own value; a Read Blob with none reads afresh")
    func perCentral() throws {
        var reads = LongRead()
        let a = Array(repeating: UInt8(ascii: "a"), count: 40), b = Array(repeating: UInt8(ascii: "b"), count: 40)
        #expect(try reads.read(by: "A", at: 0) { a }.count == 40)
        #expect(try reads.read(by: "B", at: 0) { b }.count == 40)
        #expect(try reads.read(by: "A", at: 22) { b } == Array(a[22...]))
        #expect(try reads.read(by: "B", at: 22) { a } == Array(b[22...]))
        #expect(try reads.read(by: "C", at: 22) { b } == Array(b[22...]))
        #expect(throws: DBusError.self) { try reads.read(by: "A", at: 41) { a } }
    }

    @Test("past 16 centrals the remembered values are forgotten, and a Read Blob reads afresh")
    func bounded() throws {
        var reads = LongRead()
        for index in 0..<LongRead.remembered { _ = try reads.read(by: "c\(index)", at: 0) { [UInt8(index)] + Array(repeating: 0, count: 30) } }
        #expect(try reads.read(by: "c0", at: 1) { [9, 9, 9] } == Array(repeating: 0, count: 30))
        _ = try reads.read(by: "new", at: 0) { [1] }
        #expect(try reads.read(by: "c0", at: 1) { [9, 9, 9] } == [9, 9])
    }
}
