import Foundation
import Synchronization
@testable import Peripheral
import Testing

@Suite("The acquired sockets")
struct SocketChannelTests {
    @Test("sending never blocks: a peer that does not read fills the socket, and sends then report it full")
    func fullNeverBlocks() throws {
        let (channel, theirs) = try SocketChannel.pair()
        defer { channel.close() }
        let packet = [UInt8](repeating: 0x41, count: 200)
        var results: [SocketChannel.SendResult] = []
        let started = ContinuousClock.now
        // Far more than a socket buffer holds; the peer never reads.
        for _ in 0..<20_000 { results.append(channel.send(packet)) }
        // A send that blocked would never return; the bound only keeps a regression from hanging the suite's report.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(results.first == .sent)
        #expect(results.last == .full)
        // Once the peer reads, packets flow again.
        var buffer = [UInt8](repeating: 0, count: 512)
        for _ in 0..<50 { _ = recv(theirs, &buffer, buffer.count, 0) }
        #expect(channel.send(packet) == .sent)
        // Shut down before closing: a process another test spawns at this moment holds a copy of the descriptor
        // until its exec, and a close alone would leave the socket open through that copy.
        shutdown(theirs, Int32(SHUT_RDWR))
        close(theirs)
        #expect(channel.send(packet) == .closed)
    }

    @Test("a write that comes by another path first gets what already waits on the socket, in order, and the reader ends at the peer's close")
    func drainKeepsOrder() throws {
        let (channel, theirs) = try SocketChannel.pair()
        let log = Mutex<[String]>([])
        let ended = Mutex(false)
        channel.startReading(mtu: 64, { packet in log.withLock { $0.append(String(decoding: packet, as: UTF8.self)) } },
                            ended: { ended.withLock { $0 = true } })
        // A D-Bus write request (here "request k") is applied right after drain(): every report written to the socket
        // before it must be applied by then, whichever thread takes it (the reader's wake-up alone lost this race).
        for round in 0..<200 {
            for item in 0..<3 {
                let text = Array("report \(round).\(item)".utf8)
                #expect(send(theirs, text, text.count, 0) == text.count)
            }
            channel.drain()
            log.withLock { $0.append("request \(round)") }
        }
        let entries = log.withLock { $0 }
        let requests = entries.indices.filter { entries[$0].hasPrefix("request") }
        #expect(requests.count == 200)
        for (round, index) in requests.enumerated() {
            let before = entries[..<index].filter { $0.hasPrefix("report \(round).") }
            #expect(before == (0..<3).map { "report \(round).\($0)" }, "round \(round): \(before) before its request")
        }
        shutdown(theirs, Int32(SHUT_RDWR))
        close(theirs)
        let deadline = ContinuousClock.now + .seconds(5)
        while !ended.withLock({ $0 }) && ContinuousClock.now < deadline { usleep(1000) }
        #expect(ended.withLock { $0 }, "the reader did not end at the peer's close")
        channel.close()
    }
}
