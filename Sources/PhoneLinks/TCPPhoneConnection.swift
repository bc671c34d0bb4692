import Foundation
package import InputCodes
package import NetSocket
package import RemoteTouchProtocol
import Synchronization
package import Verifier
package import Waiting

/// One TCP connection of the virtual iPad to the computer: messages batched into at most one frame per 8 ms
/// (the seed's 120 Hz), a ping every `pingInterval` while nothing else is sent, and a reader thread that keeps the
/// computer's replies: pongs, pairing states, status (with their CLOCK_MONOTONIC arrival) and refusals. No answer
/// at all for `deadAfter` means the link is dead, as the app decides from its heartbeat.
package final class TCPPhoneConnection: Sendable {
    package static let frameInterval: Duration = .milliseconds(8)
    /// `TCP_USER_TIMEOUT` of the phone's connections.
    package static let userTimeout: Duration = .seconds(2)

    package let socket: TCPSocket
    private let pingInterval: Duration
    private let deadAfter: Duration
    private let onStatus: @Sendable (StatusObservation) -> Void
    private let state = Mutex(State())
    /// Held from taking a batch to its last byte sent, so batches leave in the order they were taken.
    private let flushing = Mutex(())
    private let heartbeat = Mutex<Task<Void, Never>?>(nil)
    /// Signalled at each message the computer sends and when the connection goes down.
    package let changes = Changes()

    package struct State {
        package var pending: [PhoneMessage] = []
        package var lastFrame: ContinuousClock.Instant?
        package var flushScheduled = false
        /// Between `hold()` and `release()`: the stamp every message takes, taken at the hold (they are one instant
        /// of the phone's), and they wait, whatever the pace, to leave as one frame.
        package var holdStamp: Double?
        package var lastHeard = ContinuousClock.now
        package var down: String?
        package var pairingWaiters: [(id: Int, continuation: CheckedContinuation<PairingStatus?, Never>)] = []
        package var nextWaiter = 0
        package var errors: [StatusError] = []
        package var pongs: [(sent: Double, at: MonotonicTime)] = []
        /// The UDP port the computer bound to this connection (`udpBound`).
        package var boundPort: UInt16?
    }

    package init(socket: TCPSocket, pingInterval: Duration, deadAfter: Duration, onStatus: @escaping @Sendable (StatusObservation) -> Void) {
        self.socket = socket
        self.pingInterval = pingInterval
        self.deadAfter = deadAfter
        self.onStatus = onStatus
    }

    /// The phone's clock for timestamps: CLOCK_MONOTONIC in whole milliseconds, never going back, as phones commonly
    /// stamp (a 120 Hz batch's messages often share one: docs/protocol.md accepts equal timestamps).
    package static func timestamp() -> Double { (Double(MonotonicTime.now().nanoseconds) / 1e6).rounded(.down) }

    /// Why the connection is down, or nil while it is up.
    package var down: String? { state.withLock { $0.down } }

    /// Round trips of the pings answered so far, in milliseconds.
    package var roundTrips: [Double] { state.withLock { $0.pongs.map { Double($0.at.nanoseconds) / 1e6 - $0.sent } } }

    /// Refusals the computer sent so far, oldest first.
    package var errors: [StatusError] { state.withLock { $0.errors } }

    package func start() {
        let thread = Thread { [self] in readLoop() }
        thread.name = "tcp-phone"
        thread.start()
        let task = Task { [self] in
            await Pace.every(pingInterval / 2) {
                guard down == nil else { return false }
                let (idle, silent) = state.withLock { state in
                    (state.lastFrame.map { ContinuousClock.now - $0 >= pingInterval } ?? true, ContinuousClock.now - state.lastHeard)
                }
                if silent > deadAfter {
                    markDown("no answer from the computer for \(silent.formatted(.units(allowed: [.milliseconds]))) (pings unanswered)")
                    socket.close()
                    return false
                }
                // A ping that cannot be sent has marked the connection down: the next beat stops.
                if idle { try? await enqueue(.ping) }
                return true
            }
        }
        heartbeat.withLock { $0 = task }
    }

    // MARK: Sending

    /// Queues a message; it leaves in the next frame, at once when the last frame left 8 ms ago or more. It is
    /// stamped as it is queued, under the queue's lock, so stamps never go back in time from one message to the next:
    /// stamped before the lock, the driver's and the heartbeat's messages could queue out of order, and the computer
    /// refuses a message older than the one before it (seen once in a suite run: a dragStart refused as nonMonotonic).
    package func enqueue(_ body: PhoneMessage.Body) async throws {
        let due: ContinuousClock.Instant? = try flushing.withLock { _ throws in
            let now = ContinuousClock.now
            enum Plan { case now([PhoneMessage]), later(ContinuousClock.Instant), queued }
            let plan: Plan = state.withLock { state in
                state.pending.append(PhoneMessage(timestamp: state.holdStamp ?? Self.timestamp(), body))
                if state.flushScheduled || state.holdStamp != nil { return .queued }
                if let last = state.lastFrame, now - last < Self.frameInterval {
                    state.flushScheduled = true
                    return .later(last + Self.frameInterval)
                }
                state.lastFrame = now
                defer { state.pending = [] }
                return .now(state.pending)
            }
            switch plan {
            case .now(let batch):
                try write(batch)
                return nil
            case .later(let due): return due
            case .queued: return nil
            }
        }
        guard let due else { return }
        Pace.at(due) { [self] in
            flushing.withLock { _ in
                let batch = state.withLock { state -> [PhoneMessage] in
                    // A hold's release sends what waits, in one frame.
                    if state.holdStamp != nil { state.flushScheduled = false; return [] }
                    defer { state.pending = []; state.flushScheduled = false; state.lastFrame = .now }
                    return state.pending
                }
                if !batch.isEmpty { try? write(batch) }
            }
        }
    }

    /// Whether messages wait for their frame (the 8 ms pace).
    package var hasPending: Bool { state.withLock { !$0.pending.isEmpty } }

    /// Sends what waits for its frame now, ahead of the pace: the udp transport's movement leaves at once, and must
    /// not overtake a control message the phone sent before it (a drag's dragStart held for the pace while its first
    /// packets went, seen once in a nightly run: the computer moved the pointer before it pressed the button). The
    /// flush already scheduled then finds nothing to send.
    package func flushPending() throws {
        try flushing.withLock { _ throws in
            let batch = state.withLock { state in
                defer { if !state.pending.isEmpty { state.pending = []; state.lastFrame = .now } }
                return state.pending
            }
            if !batch.isEmpty { try write(batch) }
        }
    }

    /// From now on messages take one stamp, the hold's, and wait for `release()`, so what is queued meanwhile leaves
    /// as one frame (a batch of up to 64, docs/protocol.md), as a phone sends the events of one 120 Hz frame.
    package func hold() {
        state.withLock { $0.holdStamp = Self.timestamp() }
    }

    /// Ends a `hold()`: what waits leaves at once, as one frame.
    package func release() throws {
        state.withLock { $0.holdStamp = nil }
        try flushPending()
    }

    /// Bytes that are not a command (a fault scenario's malformed payloads) go out as a frame body of their own.
    package func sendRaw(_ body: [UInt8]) throws {
        try flushing.withLock { _ throws in try check(socket.send(NetworkFrame.encode(body))) }
        state.withLock { $0.lastFrame = .now }
    }

    private func write(_ batch: [PhoneMessage]) throws {
        for start in stride(from: 0, to: batch.count, by: PhoneMessage.maxBatch) {
            let part = Array(batch[start..<min(batch.count, start + PhoneMessage.maxBatch)])
            try check(socket.send(NetworkFrame.encode(PhoneMessage.frameBody(part))))
        }
    }

    private func check(_ result: TCPSocket.SendResult) throws {
        guard result != .sent else { return }
        let reason = down ?? "the connection to the computer failed while sending"
        markDown(reason)
        throw LinkError(.link, "cannot send to the computer: \(reason)")
    }

    /// Sends `body` and waits for the computer's pairing state (nil when the connection went first or it did not
    /// come within `timeout`); also the refusals the computer sent meanwhile (a wrong code's comes first).
    package func pairing(_ body: PhoneMessage.Body, timeout: Duration) async -> (status: PairingStatus?, refusals: [StatusError]) {
        let errorsBefore = errors.count
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        var timer: Task<Void, Never>?
        // The reader resumes the wait with the computer's pairing state; the timer, the connection going down or the
        // task's cancellation (an interrupted run) with nil.
        let status: PairingStatus? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { $0.pairingWaiters.append((id, continuation)) }
                if Task.isCancelled { resumeWaiters(only: id) }
                Task { [self] in
                    do {
                        try await enqueue(body)
                    } catch {
                        markDown(down ?? "\(error)")
                    }
                }
                timer = Pace.after(timeout) { [self] in resumeWaiters(only: id) }
            }
        } onCancel: {
            resumeWaiters(only: id)
        }
        timer?.cancel()
        return (status, Array(errors.dropFirst(errorsBefore)))
    }

    /// Binds the phone's UDP port to this connection (`bindUDP`) and waits for `udpBound`; nil once bound, else why
    /// not (the computer's refusal, the connection going, no answer within `timeout`).
    package func bindUDP(port: UInt16, timeout: Duration) async -> String? {
        let errorsBefore = errors.count
        do {
            try await enqueue(.bindUDP(port: port))
        } catch {
            return "\(error)"
        }
        // The reader thread keeps what the computer answers, and signals each message.
        do {
            let outcome: String? = try await changes.until("udpBound from the computer", timeout: timeout) {
                let (bound, down, refusal) = state.withLock { ($0.boundPort, $0.down, $0.errors.dropFirst(errorsBefore).first) }
                if bound == port { return .some(nil) }
                if let refusal { return "\(refusal.code): \(refusal.message)" }
                return down.map { .some($0) }
            }
            return outcome
        } catch let timeout as WaitTimeout {
            return "\(timeout)"
        } catch {
            return "cancelled (the run was interrupted)"
        }
    }

    // MARK: Receiving

    private func readLoop() {
        var reader = NetworkFrame.Reader()
        loop: while true {
            switch socket.receive() {
            case .timedOut: continue
            case .ended(let error):
                markDown(error.map { "the connection failed: \($0)" } ?? "the computer closed the connection")
                break loop
            case .bytes(let bytes):
                reader.append(bytes)
                while let next = reader.next() {
                    guard case .frame(let body) = next else {
                        markDown("the computer sent a frame of a bad length")
                        socket.close()
                        break loop
                    }
                    received(body)
                }
            }
        }
    }

    private func received(_ body: [UInt8]) {
        let at = MonotonicTime.now()
        state.withLock { $0.lastHeard = .now }
        guard let message = try? ComputerMessage.decode(body) else { return }
        switch message {
        case .pong(let sent, _): state.withLock { $0.pongs.append((sent, at)) }
        case .status(let status): onStatus(StatusObservation(at: at, status: status))
        case .error(let error): state.withLock { $0.errors.append(error) }
        case .udpBound(_, let port): state.withLock { $0.boundPort = port }
        case .pairing(let status):
            let waiter = state.withLock { state in state.pairingWaiters.isEmpty ? nil : state.pairingWaiters.removeFirst() }
            waiter?.continuation.resume(returning: status)
        }
        changes.signal()
    }

    private func markDown(_ reason: String) {
        let first = state.withLock { state in
            defer { if state.down == nil { state.down = reason } }
            return state.down == nil
        }
        if first {
            resumeWaiters()
            changes.signal()
        }
    }

    /// Ends the waits for a pairing state with nil: every one (the connection is down), or one that timed out.
    private func resumeWaiters(only id: Int? = nil) {
        let waiters = state.withLock { state in
            let ending = state.pairingWaiters.filter { id == nil || $0.id == id }
            state.pairingWaiters.removeAll { id == nil || $0.id == id }
            return ending
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }

    /// Closes the connection in order (FIN): the user disconnects.
    package func close(reason: String) {
        heartbeat.withLock { $0?.cancel() }
        markDown(reason)
        socket.close()
    }

    /// Aborts the connection (RST): the app's socket is gone at once.
    package func reset(reason: String) {
        heartbeat.withLock { $0?.cancel() }
        markDown(reason)
        socket.reset()
    }
}
