import Foundation
import Radio
import System

/// One HCI host played by a test: commands written to a controller's file, events and data read back with named
/// timeouts. Packets that come while the test waits for another are kept, in order, for the next wait.
struct TestHost {
    let file: FileDescriptor
    let name: String
    private var framer: H4Framer
    private var kept: [(packet: H4Packet, at: RadioInstant)] = []
    private let clock = MonotonicClock()

    init(file: FileDescriptor, name: String) {
        self.file = file
        self.name = name
        framer = H4Framer(source: name)
    }

    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    /// The next packet that `matches`, and when it was read; packets before it that do not match are kept.
    mutating func next(_ what: String, within seconds: Double = 5, matching matches: (H4Packet) -> Bool) throws
        -> (packet: H4Packet, at: RadioInstant)
    {
        let deadline = clock.now().advanced(by: Int64(seconds * 1e9))
        while true {
            if let index = kept.firstIndex(where: { matches($0.packet) }) { return kept.remove(at: index) }
            let left = clock.now().distance(to: deadline)
            guard left > 0 else { throw Timeout(description: "\(name): no \(what) within \(seconds) s") }
            var entry = pollfd(fd: file.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(max(1, left / 1_000_000))) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 8192)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(file.rawValue, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Timeout(description: "\(name): the controller closed while waiting for \(what)") }
            let now = clock.now()
            kept += try framer.append(buffer.prefix(count)).map { ($0, now) }
        }
    }

    /// Sends a command and returns its Command Complete's return parameters (status first), or its Command Status's
    /// status for a command that completes later.
    @discardableResult
    mutating func command(_ opcode: UInt16, _ parameters: [UInt8] = []) throws -> [UInt8] {
        try send(H4Packet(bytes: [0x01, UInt8(opcode & 0xff), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters))
        let answer = try next("answer to command 0x\(String(opcode, radix: 16))") { packet in
            let p = Array(packet.eventParameters)
            return (packet.eventCode == 0x0e && p.count >= 3 && UInt16(p[1]) | UInt16(p[2]) << 8 == opcode)
                || (packet.eventCode == 0x0f && p.count >= 4 && UInt16(p[2]) | UInt16(p[3]) << 8 == opcode)
        }
        let p = Array(answer.packet.eventParameters)
        return answer.packet.eventCode == 0x0e ? Array(p.dropFirst(3)) : [p[0]]
    }

    func send(_ packet: H4Packet) throws {
        try file.writeAll(packet.bytes)
    }
}
