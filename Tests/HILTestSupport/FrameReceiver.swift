import Foundation
package import NetSocket
import RemoteTouchProtocol

/// Reads the length-prefixed frames of the network transports (`NetworkFrame`, docs/protocol.md) at one end of a
/// loopback TCP connection in a test: the computer's end in the phone's tests, the phone's end in the computer's.
///
/// It reads on a thread of its own. A blocking read on one of the few threads the tests' tasks share would hold
/// back every other test of the parallel run, and the heartbeat or session under test with them.
package enum FrameReceiver {
    /// What came until the reading stopped.
    package struct Received<Message: Sendable>: Sendable {
        /// One entry per frame: the messages it held.
        package var frames: [[Message]]
        /// The other end closed the connection (or reset it).
        package var ended: Bool
        /// `patience` passed before `done` was met.
        package var timedOut: Bool

        package var messages: [Message] { frames.flatMap { $0 } }
    }

    /// How long a test waits for an answer by default. Generous: in a full `swift test` the whole process has stalled
    /// for 9 s at its start, and a wait only takes as long as the answer does.
    package static let patience: Duration = .seconds(30)

    /// A frame of a length the transport refuses (what `decode` throws comes through as it is).
    package struct BadFrame: Error, CustomStringConvertible {
        package var description: String
    }

    /// Decodes each frame `socket` receives with `decode` until `done` holds for the messages so far, the
    /// connection ends, or `patience` passes. `socket` should have a short receive timeout (100 ms), since the
    /// deadline is checked between reads.
    package static func receive<Message: Sendable>(
        _ socket: TCPSocket, patience: Duration, decode: @escaping @Sendable ([UInt8]) throws -> [Message],
        until done: @escaping @Sendable ([Message]) -> Bool
    ) async throws -> Received<Message> {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try receiveBlocking(socket, patience: patience, decode: decode, until: done) })
            }.start()
        }
    }

    private static func receiveBlocking<Message: Sendable>(
        _ socket: TCPSocket, patience: Duration, decode: ([UInt8]) throws -> [Message], until done: ([Message]) -> Bool
    ) throws -> Received<Message> {
        var reader = NetworkFrame.Reader()
        var received = Received<Message>(frames: [], ended: false, timedOut: false)
        let deadline = ContinuousClock.now + patience
        while !done(received.messages) {
            guard ContinuousClock.now < deadline else {
                received.timedOut = true
                break
            }
            switch socket.receive() {
            case .timedOut: continue
            case .ended: received.ended = true
            case .bytes(let bytes): reader.append(bytes)
            }
            while !done(received.messages), let next = reader.next() {
                guard case .frame(let body) = next else { throw BadFrame(description: "a frame of a bad length: \(next)") }
                received.frames.append(try decode(body))
            }
            if received.ended { break }
        }
        return received
    }
}
