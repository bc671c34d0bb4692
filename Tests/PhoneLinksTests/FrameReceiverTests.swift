import Foundation
import HILTestSupport
import NetSocket
import RemoteTouchProtocol
import Testing

/// The tests' frame reader (HILTestSupport): it must tell an answer, a closed connection, silence and a broken frame
/// apart, or the transport tests built on it could pass on nothing.
@Suite("FrameReceiver: the transport tests' reader of length-prefixed frames")
struct FrameReceiverTests {
    static func sockets() throws -> (sender: TCPSocket, receiver: TCPSocket) {
        let listener = try TCPSocket.listen(port: 0, netns: nil)
        let sender = try TCPSocket.connect(to: "127.0.0.1", port: try #require(listener.localPort), netns: nil, timeout: .seconds(2))
        let (receiver, _, _) = try #require(listener.accept())
        receiver.setReceiveTimeout(.milliseconds(100))
        return (sender, receiver)
    }

    static let text: @Sendable ([UInt8]) throws -> [String] = { [String(decoding: $0, as: UTF8.self)] }

    @Test("stops at the frame that meets the condition; frames behind it in the same read are not taken")
    func stopsWhenDone() async throws {
        let (sender, receiver) = try Self.sockets()
        _ = sender.send(NetworkFrame.encode(Array("a".utf8)) + NetworkFrame.encode(Array("b".utf8)) + NetworkFrame.encode(Array("c".utf8)))
        let got = try await FrameReceiver.receive(receiver, patience: .seconds(30), decode: Self.text) { $0.contains("b") }
        #expect(got.messages == ["a", "b"])
        #expect(!got.ended && !got.timedOut)
    }

    @Test("silence: the frames so far and timedOut once patience passes")
    func silence() async throws {
        let (sender, receiver) = try Self.sockets()
        _ = sender.send(NetworkFrame.encode(Array("only".utf8)))
        let got = try await FrameReceiver.receive(receiver, patience: .milliseconds(400), decode: Self.text) { $0.contains("never") }
        #expect(got.messages == ["only"])
        #expect(got.timedOut && !got.ended)
    }

    @Test("the other end closing: what came before the close, and ended")
    func closed() async throws {
        let (sender, receiver) = try Self.sockets()
        _ = sender.send(NetworkFrame.encode(Array("last".utf8)))
        sender.close()
        let got = try await FrameReceiver.receive(receiver, patience: .seconds(30), decode: Self.text) { _ in false }
        #expect(got.messages == ["last"])
        #expect(got.ended && !got.timedOut)
    }

    @Test("a frame of length zero is refused with BadFrame, not read as an empty message")
    func badLength() async throws {
        let (sender, receiver) = try Self.sockets()
        _ = sender.send([0, 0, 0, 0, 0x7B])
        await #expect(throws: FrameReceiver.BadFrame.self) {
            _ = try await FrameReceiver.receive(receiver, patience: .seconds(30), decode: Self.text) { _ in false }
        }
    }
}
