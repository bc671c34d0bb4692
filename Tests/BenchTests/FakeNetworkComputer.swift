import Foundation
import InputCodes
import NetSocket
import RemoteTouchProtocol
import Synchronization

/// A computer for the network reference client to talk to, on 127.0.0.1: a TCP listener that speaks the tcp
/// transport's framing with the project's own strict decoders (docs/protocol.md), and a UDP socket for movement.
/// It answers as the real computer does — `pairingRequest` shows a code (written to its code file before the
/// answer), `pair` with that code pairs (another is `wrongCode`), `ping` is ponged, `bindUDP` from a paired
/// session is `udpBound`, a command before pairing is `notPaired` — and keeps every frame and datagram with its
/// CLOCK_MONOTONIC arrival. Nothing is injected: the test looks at what arrived.
final class FakeNetworkComputer: Sendable {
    struct Frame: Sendable {
        var at: UInt64
        var messages: [PhoneMessage]
    }

    struct Datagram: Sendable {
        var at: UInt64
        var text: String
        var port: UInt16
    }

    struct State: Sendable {
        var frames: [Frame] = []
        var datagrams: [Datagram] = []
        /// Frames that did not decode, with the decoder's message.
        var refusedFrames: [String] = []
        var paired: Bool
        var boundPort: UInt16?
    }

    let listener: TCPSocket
    let movement: UDPSocket
    let codeFile: String
    /// The code it shows; the code file gets `writtenCode` (a different one makes the client's code wrong).
    let code: String
    let writtenCode: String
    let state: Mutex<State>

    init(codeFile: String, code: String = "123456", writtenCode: String? = nil, alreadyPaired: Bool = false) throws {
        listener = try TCPSocket.listen(port: 0, netns: nil)
        movement = try UDPSocket.bind(port: 0, netns: nil)
        self.codeFile = codeFile
        self.code = code
        self.writtenCode = writtenCode ?? code
        state = Mutex(State(paired: alreadyPaired))
        let accepting = Thread { [self] in
            while let (connection, _, _) = listener.accept() {
                let reading = Thread { [self] in serve(connection) }
                reading.start()
            }
        }
        accepting.start()
        let receiving = Thread { [self] in
            while let datagram = movement.receive() {
                let at = MonotonicTime.now().nanoseconds
                state.withLock { $0.datagrams.append(Datagram(at: at, text: PointerPayload.text(datagram.bytes, format: .udp), port: datagram.port)) }
            }
        }
        receiving.start()
    }

    var port: UInt16 { listener.localPort ?? 0 }
    var udpPort: UInt16 { movement.localPort ?? 0 }
    var snapshot: State { state.withLock { $0 } }

    func stop() {
        listener.close()
        movement.close()
    }

    private func serve(_ connection: TCPSocket) {
        var reader = NetworkFrame.Reader()
        defer { connection.close() }
        while case .bytes(let bytes) = connection.receive() {
            reader.append(bytes)
            while case .frame(let body)? = reader.next() {
                let at = MonotonicTime.now().nanoseconds
                do {
                    let messages = try PhoneMessage.decodeFrame(body)
                    state.withLock { $0.frames.append(Frame(at: at, messages: messages)) }
                    for message in messages {
                        for answer in answers(message) { _ = connection.send(answer.frame()) }
                    }
                } catch {
                    state.withLock { $0.refusedFrames.append("\(error)") }
                    _ = connection.send(ComputerMessage.error(StatusError(.invalidFrame, "\(error)")).frame())
                }
            }
        }
    }

    private func answers(_ message: PhoneMessage) -> [ComputerMessage] {
        let paired = state.withLock { $0.paired }
        switch message.body {
        case .ping:
            return [.pong(pingTimestamp: message.timestamp, receivedAt: Date().timeIntervalSince1970 * 1000)]
        case .pairingRequest:
            if paired { return [.pairing(PairingStatus(state: .paired, attemptsRemaining: 3))] }
            // Written before the answer, as the real computer's code file is.
            try? (writtenCode + "\n").write(toFile: codeFile, atomically: true, encoding: .utf8)
            return [.pairing(PairingStatus(state: .awaitingCode, attemptsRemaining: 3, secondsRemaining: 60))]
        case .pair(let digits):
            if paired || digits == code {
                state.withLock { $0.paired = true }
                return [.pairing(PairingStatus(state: .paired, attemptsRemaining: 3))]
            }
            return [.error(StatusError(.wrongCode, "wrong code: 2 attempts left")),
                    .pairing(PairingStatus(state: .awaitingCode, attemptsRemaining: 2, secondsRemaining: 59))]
        case .bindUDP(let port):
            guard paired else { return [.error(StatusError(.notPaired, "not paired"))] }
            state.withLock { $0.boundPort = port }
            return [.udpBound(address: "127.0.0.1", port: port)]
        case .command, .pinchStart, .pinchEnd:
            return paired ? [] : [.error(StatusError(.notPaired, "not paired"))]
        }
    }
}
