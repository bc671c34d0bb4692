import Foundation
import HILTestSupport
import NetSocket
import RemoteTouchProtocol
import Testing
@testable import PhoneLinks

/// The virtual iPad's TCP connection against a loopback socket that plays the computer: what goes out (stamps,
/// batches, pings) and what it makes of the answers (pongs, pairing states, the computer closing).
@Suite("the virtual iPad's TCP connection, against a loopback computer")
struct TCPPhoneConnectionTests {
    /// A connection and the computer's end of it, on 127.0.0.1.
    struct Pair {
        let phone: TCPPhoneConnection
        let computer: TCPSocket
    }

    static func connect(pingInterval: Duration = .seconds(60), deadAfter: Duration = .seconds(60)) throws -> Pair {
        let listener = try TCPSocket.listen(port: 0, netns: nil)
        let port = try #require(listener.localPort)
        let socket = try TCPSocket.connect(to: "127.0.0.1", port: port, netns: nil, timeout: .seconds(2))
        let (computer, _, _) = try #require(listener.accept())
        computer.setReceiveTimeout(.milliseconds(100))
        let phone = TCPPhoneConnection(socket: socket, pingInterval: pingInterval, deadAfter: deadAfter) { _ in }
        phone.start()
        return Pair(phone: phone, computer: computer)
    }

    /// For every wait here, not only the reads.
    static let patience = FrameReceiver.patience

    /// The frames the computer receives until `done` says so of the messages so far, or `patience` passes.
    static func receive(_ socket: TCPSocket, until done: @escaping @Sendable ([PhoneMessage]) -> Bool) async throws -> [[PhoneMessage]] {
        try await FrameReceiver.receive(socket, patience: patience, decode: { try PhoneMessage.decodeFrame($0) }, until: done).frames
    }

    @Test("messages queued by several senders at once, the heartbeat's pings among them, go out stamped in the order they leave")
    func stampsFollowTheQueue() async throws {
        // A ping every 2 ms of quiet: the heartbeat races the senders, as it did in the suite run where a dragStart
        // was refused as older than the message before it.
        let pair = try Self.connect(pingInterval: .milliseconds(2))
        let senders = 4, each = 150
        await withThrowingTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for index in 0..<each {
                        try await pair.phone.enqueue(.command(.cursorMove(delta: Point(x: Double(sender), y: Double(index)))))
                        if index % 10 == 0 { try await Task.sleep(for: .milliseconds(3)) }
                    }
                }
            }
        }
        let frames = try await Self.receive(pair.computer) { messages in
            messages.count { $0.type == "mouseMove" } >= senders * each
        }
        pair.phone.close(reason: "the test ended")
        let messages = frames.flatMap { $0 }
        let moves = messages.filter { $0.type == "mouseMove" }
        #expect(moves.count == senders * each, "the computer got \(moves.count) of \(senders * each) moves")
        let backwards = zip(messages, messages.dropFirst()).filter { $1.timestamp < $0.timestamp }
        #expect(backwards.count == 0, "messages went out older than the one before them, first: \(backwards.first.map { "\($0.0.timestamp) then \($0.1.timestamp)" } ?? "")")
        #expect(frames.allSatisfy { $0.count <= PhoneMessage.maxBatch }, "a frame over \(PhoneMessage.maxBatch) messages")
        // Each sender's own moves keep their order.
        for sender in 0..<senders {
            let own = moves.compactMap { message -> Double? in
                guard case .command(.cursorMove(let delta)) = message.body, delta.x == Double(sender) else { return nil }
                return delta.y
            }
            #expect(own == (0..<each).map(Double.init), "sender \(sender)'s moves out of order")
        }
    }

    @Test("a message held for the 8 ms pace goes out at once on flushPending, and the scheduled flush sends nothing twice")
    func flushAheadOfThePace() async throws {
        let pair = try Self.connect()
        try await pair.phone.enqueue(.command(.cursorMove(delta: Point(x: 1, y: 0))))
        // Within 8 ms of the first frame: held for the pace.
        try await pair.phone.enqueue(.command(.dragStart))
        #expect(pair.phone.hasPending)
        try pair.phone.flushPending()
        #expect(!pair.phone.hasPending)
        let frames = try await Self.receive(pair.computer) { $0.contains { $0.type == "dragStart" } }
        // Past the pace: the scheduled flush has run and found nothing.
        try await Task.sleep(for: .milliseconds(50))
        try pair.phone.flushPending()
        let later = try await FrameReceiver.receive(pair.computer, patience: .milliseconds(300), decode: { try PhoneMessage.decodeFrame($0) }, until: { _ in false }).frames
        pair.phone.close(reason: "the test ended")
        #expect(frames.flatMap { $0 }.map(\.type) == ["mouseMove", "dragStart"])
        #expect(later.isEmpty, "sent again: \(later)")
    }

    @Test("messages queued in a hold take its stamp and leave as one frame at its release, however long the hold, past the 8 ms pace")
    func holdMakesOneFrame() async throws {
        let pair = try Self.connect()
        pair.phone.hold()
        try await pair.phone.enqueue(.command(.keyPress(key: .a, modifiers: [])))
        // Longer than the pace: a hold is not a frame's 8 ms; the scheduled flush must not send half of it.
        try await Task.sleep(for: .milliseconds(30))
        try await pair.phone.enqueue(.command(.keyPress(key: .b, modifiers: [])))
        try await pair.phone.enqueue(.command(.mediaControl(action: .playPause)))
        let early = try await FrameReceiver.receive(pair.computer, patience: .milliseconds(100), decode: { try PhoneMessage.decodeFrame($0) }, until: { _ in false }).frames
        #expect(early.isEmpty, "sent during the hold: \(early)")
        try pair.phone.release()
        let frames = try await Self.receive(pair.computer) { $0.count >= 3 }
        pair.phone.close(reason: "the test ended")
        #expect(frames.map(\.count) == [3], "frames: \(frames.map { $0.map(\.type) })")
        #expect(Set(frames.flatMap { $0 }.map(\.timestamp)).count == 1, "one instant, one stamp: \(frames)")
    }

    @Test("a ping while idle is answered with a pong: its round trip is kept; a pairing request gets the computer's state")
    func pingAndPairing() async throws {
        let pair = try Self.connect(pingInterval: .milliseconds(50))
        let pings = try await Self.receive(pair.computer) { $0.contains { $0.body == .ping } }.flatMap { $0 }
        let ping = try #require(pings.first { $0.body == .ping }, "no ping within \(Self.patience) of quiet")
        #expect(pair.computer.send(ComputerMessage.pong(pingTimestamp: ping.timestamp, receivedAt: 1).frame()) == .sent)
        let answered = ContinuousClock.now + Self.patience
        while pair.phone.roundTrips.isEmpty, ContinuousClock.now < answered { try await Task.sleep(for: .milliseconds(5)) }
        #expect(pair.phone.roundTrips.count == 1 && pair.phone.roundTrips.allSatisfy { $0 >= 0 }, "\(pair.phone.roundTrips)")

        let computer = pair.computer
        let answer = Task.detached {
            let asked = try await Self.receive(computer) { $0.contains { $0.body == .pairingRequest } }.flatMap { $0 }
            #expect(asked.contains { $0.body == .pairingRequest })
            _ = computer.send(ComputerMessage.pairing(PairingStatus(state: .awaitingCode, attemptsRemaining: 3)).frame())
        }
        let (status, refusals) = await pair.phone.pairing(.pairingRequest, timeout: Self.patience)
        try await answer.value
        #expect(status == PairingStatus(state: .awaitingCode, attemptsRemaining: 3))
        #expect(refusals.isEmpty)
        pair.phone.close(reason: "the test ended")
    }

    @Test("the computer closing the connection: the phone knows why, a pairing wait ends with nothing, sending fails with the reason")
    func computerCloses() async throws {
        let pair = try Self.connect()
        let computer = pair.computer
        Task.detached {
            try? await Task.sleep(for: .milliseconds(50))
            computer.close()
        }
        let (status, _) = await pair.phone.pairing(.pairingRequest, timeout: Self.patience)
        #expect(status == nil)
        #expect(pair.phone.down == "the computer closed the connection")
        // The first send after the close can still reach the kernel's buffer (the peer answers it with a reset).
        let error = await #expect(throws: LinkError.self) {
            try await pair.phone.enqueue(.command(.tap(type: .single)))
            try await Task.sleep(for: .milliseconds(20))
            try await pair.phone.enqueue(.command(.tap(type: .single)))
        }
        #expect(error?.what == "cannot send to the computer: the computer closed the connection")
    }
}
