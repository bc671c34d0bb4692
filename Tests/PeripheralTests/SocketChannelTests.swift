import Foundation
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
        #expect(ContinuousClock.now - started < .seconds(5))
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
}
