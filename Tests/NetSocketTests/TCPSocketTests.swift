import NetSocket
import Testing

@Suite("TCPSocket: a closed socket keeps its descriptor until it goes")
struct TCPSocketTests {
    @Test("a closed listener takes no connection, even one for a listener opened after it (the descriptor is not reused)")
    func closedListener() throws {
        let old = try TCPSocket.listen(port: 0, netns: nil)
        let number = old.fd
        old.close()
        let fresh = try TCPSocket.listen(port: 0, netns: nil)
        // Closed at once, the number went to the next socket, and the old listener's accept thread (about to call
        // accept once more) took that socket's connections.
        #expect(fresh.fd != number, "the closed listener's descriptor is still its own")
        let port = try #require(fresh.localPort)
        let client = try TCPSocket.connect(to: "127.0.0.1", port: port, netns: nil, timeout: .seconds(2))
        defer { client.close() }
        #expect(old.accept().map(\.peer) == nil, "the closed listener accepts nothing")
        #expect(fresh.accept().map(\.peer) == "127.0.0.1")
    }
}
