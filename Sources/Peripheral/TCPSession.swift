import Foundation
import InputCodes
import NetSocket
import RemoteTouchProtocol
import StrictJSON
import Synchronization

/// One phone's TCP connection: frames in on a reader thread of its own, replies and status out.
///
/// A frame is decoded whole before anything of it is handled: a malformed, unknown or non-monotonic frame is
/// refused with an `error` message and injects nothing, and the connection stays usable. A length outside
/// 1…`NetworkFrame.maxLength` cannot be followed past: the session says so and closes. The session is the
/// peer's address (`tcp:10.77.0.2`), as a BLE central is its Bluetooth address: a phone that reconnects stays
/// paired. Nothing arriving for `stallTimeout` (the phone pings every 500 ms) releases what it holds; a movement
/// packet from the UDP source this session bound counts as arriving (a drag held over control while the finger
/// moves over UDP is alive).
final class TCPSession: Sendable {
    let id: String
    let peer: String
    private let movement: UDPMovement?
    private let socket: TCPSocket
    private let host: ComputerHost
    private let log: PeripheralLog
    private let stallTimeout: Duration
    private let state = Mutex(State())
    private struct State {
        var lastTimestamp: Double?
        /// When the phone was last heard from: a TCP read, or a packet from its bound UDP source.
        var heard = MonotonicTime.now()
        var stalled = false
        var closing: String?
        var replaced = false
    }
    /// This connection, among the phone's (`tcp:10.77.0.2 port 40312`): what a UDP binding belongs to.
    var connection: String { "\(id) port \(port)" }
    private let port: UInt16

    init(socket: TCPSocket, transport: String, peer: String, port: UInt16, host: ComputerHost, log: PeripheralLog,
         stallTimeout: Duration, movement: UDPMovement? = nil)
    {
        id = "\(transport):\(peer)"
        self.peer = peer
        self.port = port
        self.movement = movement
        self.socket = socket
        self.host = host
        self.log = log
        self.stallTimeout = stallTimeout
    }

    /// Reads until the connection ends; `ended` runs once it has.
    func start(ended: @escaping @Sendable () -> Void) {
        socket.setReceiveTimeout(stallTimeout)
        let thread = Thread { [self] in
            let reason = readLoop()
            // Its UDP source is bound no more from this moment, before anything else of the ending.
            movement?.unbind(connection)
            socket.close()
            log.info("phone \(id) disconnected: \(reason)")
            // A replaced session's keys were released when its phone connected again; the new one's are not its own.
            if !state.withLock({ $0.replaced }) { host.sessionEnded(id, reason: "TCP session \(id) ended (\(reason))") }
            ended()
        }
        thread.name = "tcp-session"
        thread.start()
    }

    /// A packet from the UDP source this session bound arrived: the phone is alive, though its control connection
    /// may be quiet.
    func heardMovement() {
        state.withLock { state in
            state.heard = .now()
            state.stalled = false
        }
    }

    private func readLoop() -> String {
        var reader = NetworkFrame.Reader()
        // The receive timeout, shortened to what is left of the stall deadline after movement was heard.
        var waiting = stallTimeout
        while true {
            let received = socket.receive()
            if case .timedOut = received {
                let left = stallTimeout - (MonotonicTime.now() - state.withLock { $0.heard })
                let next = left > .milliseconds(1) ? left : stallTimeout
                if next != waiting {
                    socket.setReceiveTimeout(next)
                    waiting = next
                }
                if left > .milliseconds(1) { continue }
            } else if waiting != stallTimeout {
                socket.setReceiveTimeout(stallTimeout)
                waiting = stallTimeout
            }
            switch received {
            case .timedOut:
                let first = state.withLock { state in
                    defer { state.stalled = true }
                    return !state.stalled
                }
                if first {
                    log.warning(
                        "phone \(id) sent nothing, on its control connection or bound UDP source, for \(stallTimeout): releasing what it holds")
                    host.sessionEnded(id, reason: "TCP session \(id) stalled for \(stallTimeout)")
                }
            case .ended(let error):
                if let closing = state.withLock({ $0.closing }) { return closing }
                let truncated = reader.pending > 0 ? "; \(reader.pending) byte(s) of an unfinished frame dropped" : ""
                return (error.map { "connection failed: \($0)" } ?? "the phone closed the connection") + truncated
            case .bytes(let bytes):
                // When the bytes were read: the handling time of the commands they carry starts here. Under the
                // vm rig's TCG every instruction and allocation shows in it, so the usual read (one whole frame)
                // is handled straight from the bytes read, with one clock read.
                let arrived = MonotonicTime.now()
                state.withLock { state in
                    state.heard = arrived
                    state.stalled = false
                }
                if reader.pending == 0, let body = NetworkFrame.soleFrame(bytes) {
                    handle(body, received: arrived)
                    continue
                }
                reader.append(bytes)
                while let next = reader.next() {
                    switch next {
                    case .frame(let body):
                        handle(body[...], received: arrived)
                    case .badLength(let length):
                        let reason = "a frame header announced \(length) bytes, outside 1…\(NetworkFrame.maxLength): the stream cannot be followed"
                        log.warning("closing the connection of \(id): \(reason)")
                        refuse(StatusError(.badFrame, reason + "; closing"))
                        return reason
                    }
                }
            }
        }
    }

    /// One frame's body: its messages, after checking their timestamps go forward.
    private func handle(_ body: ArraySlice<UInt8>, received: MonotonicTime) {
        // A streamed message in the phone's encoding is read in place (no parse tree, no array); anything else is
        // parsed strictly (`PhoneMessage.decodeFrame` tries the same fast path first, and refuses with its reason).
        if let message = body.withUnsafeBufferPointer(PhoneMessage.decodeStreamed) {
            handle(CollectionOfOne(message), body: body, received: received)
            return
        }
        let messages: [PhoneMessage]
        do {
            messages = try PhoneMessage.decodeFrame(body)
        } catch {
            refuse(host.processor.refusedBeforeDecoding(Array(body), code: .invalidFrame, message: "\(id): \(error.description)"))
            return
        }
        handle(messages, body: body, received: received)
    }

    private func handle(_ messages: some Collection<PhoneMessage>, body: ArraySlice<UInt8>, received: MonotonicTime) {
        let refusal: String? = state.withLock { state in
            var last = state.lastTimestamp
            for message in messages {
                if let previous = last, message.timestamp < previous {
                    return "timestamp \(JSONWriter.numberText(message.timestamp)) is earlier than \(JSONWriter.numberText(previous)): frames must not go back in time"
                }
                last = message.timestamp
            }
            state.lastTimestamp = last
            return nil
        }
        if let refusal {
            refuse(host.processor.refusedBeforeDecoding(Array(body), code: .nonMonotonic, message: "\(id): \(refusal)"))
            return
        }
        var refused: StatusError?
        for message in messages {
            if let error = handle(message, received: received), refused == nil { refused = error }
        }
        if let refused { sendNow(ComputerMessage.error(refused).frame()) }
    }

    /// One message; the refusal of a command, if any.
    private func handle(_ message: PhoneMessage, received: MonotonicTime) -> StatusError? {
        switch message.body {
        case .ping:
            send(.pong(pingTimestamp: message.timestamp, receivedAt: Date().timeIntervalSince1970 * 1000))
        case .pairingRequest:
            send(.pairing(pairingStatus()))
        case .pair(let code):
            // The refusal first, so the phone has it when the pairing state it waits for arrives.
            if let refusal = (try? host.pairingWrite(Array(code.utf8), by: id)) ?? nil { send(.error(refusal)) }
            send(.pairing(pairingStatus()))
        case .bindUDP(let port):
            guard let movement else {
                return refused(.noUDP, "this computer takes no UDP movement on its \(id.prefix { $0 != ":" }) transport: use the udp transport's control port")
            }
            guard host.pairing.isPaired(id) else {
                return refused(.notPaired, "\(id) is not paired: UDP movement is bound only to a paired session")
            }
            movement.bind(address: peer, port: port, to: id, connection: connection) { [weak self] in
                self?.heardMovement()
            }
            send(.udpBound(address: peer, port: port))
        case .pinchStart, .pinchEnd:
            guard host.pairing.isPaired(id) else {
                return refused(.notPaired, "\(id) is not paired: send pairingRequest, then pair with the code shown on this computer")
            }
        case .command(let command):
            if case .refused(let error) = host.command(command, from: id, received: received) { return error }
        }
        return nil
    }

    /// A message refused here rather than by the command path: logged and published as an error status, as the
    /// command path does for its refusals.
    private func refused(_ code: StatusError.Code, _ message: String) -> StatusError {
        let error = StatusError(code, message)
        log.warning("refused message (\(code.rawValue)): \(message)")
        host.publishStatus(error: error)
        return error
    }

    private func pairingStatus() -> PairingStatus {
        (try? PairingStatus.decode(host.pairingRead(by: id))) ?? PairingStatus(state: .idle, attemptsRemaining: 0)
    }

    /// Answers a refused frame (the processor has logged it): an error status and an `error` message.
    private func refuse(_ error: StatusError) {
        host.publishStatus(error: error)
        sendNow(ComputerMessage.error(error).frame())
    }

    /// Replies the phone waits for: sent even when the socket is momentarily full.
    private func send(_ message: ComputerMessage) {
        _ = socket.send(message.frame())
    }

    /// Status and refusals: dropped when the phone is not reading.
    func sendNow(_ frame: [UInt8]) {
        _ = socket.sendNow(frame)
    }

    /// The phone connected again: what this session holds is released now (before the new session's first
    /// command), and its end later releases nothing.
    func replace(reason: String) {
        state.withLock { $0.replaced = true }
        host.sessionEnded(id, reason: "TCP session \(connection) replaced (\(reason))")
        close(reason: reason)
    }

    /// Says why, then closes; the reader thread ends the session.
    func close(reason: String) {
        state.withLock { $0.closing = reason }
        sendNow(ComputerMessage.error(StatusError(.closing, reason)).frame())
        socket.shutdown()
    }
}
