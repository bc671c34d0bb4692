import Foundation
import HILTestSupport
import InputCodes
import NetSocket
import Peripheral
import RemoteTouchProtocol
import Testing

/// A phone for tests on loopback: frames out, the computer's messages in.
final class LoopbackPhone: Sendable {
    let socket: TCPSocket

    init(port: UInt16) throws {
        socket = try TCPSocket.connect(to: "127.0.0.1", port: port, netns: nil, timeout: .seconds(5))
        socket.setReceiveTimeout(.milliseconds(100))
    }

    func send(_ json: String) {
        _ = socket.send(NetworkFrame.encode(Array(json.utf8)))
    }

    func sendRaw(_ bytes: [UInt8]) {
        _ = socket.send(bytes)
    }

    static let patience = FrameReceiver.patience

    /// The computer's messages until `until` matches one (that one included), or the connection ends.
    /// - Throws: `TestFailure` when neither happens within `patience`.
    func read(until: @escaping @Sendable (ComputerMessage) -> Bool) async throws -> (messages: [ComputerMessage], ended: Bool) {
        let received = try await FrameReceiver.receive(socket, patience: Self.patience, decode: { [try ComputerMessage.decode($0)] }) {
            $0.contains(where: until)
        }
        if received.timedOut { throw TestFailure("no answer within \(Self.patience); got \(received.messages)") }
        return (received.messages, received.ended)
    }
}

@Suite("The TCP endpoint over loopback: framing, ping, pairing, refusals, session ends (no Bonjour)")
struct TCPEndpointTests {
    struct Setup {
        var host: ComputerHost
        var endpoint: TCPEndpoint
        var sink: RecordingSink
        var codes: ShownCodes
        var port: UInt16
    }

    static func setUp(stall: Duration = .seconds(5)) async throws -> Setup {
        let (host, sink, codes, _) = try ComputerHostTests.host(devnode: nil)
        var settings = TCPSettings()
        settings.port = 0
        settings.avahiBus = nil
        settings.stallTimeout = stall
        let endpoint = TCPEndpoint(settings: settings, log: host.log)
        try await host.start(endpoint)
        return Setup(host: host, endpoint: endpoint, sink: sink, codes: codes, port: try #require(endpoint.port))
    }

    static func isPairing(_ message: ComputerMessage) -> Bool {
        if case .pairing = message { return true }
        return false
    }

    static func isPong(_ message: ComputerMessage) -> Bool {
        if case .pong = message { return true }
        return false
    }

    static func isError(_ message: ComputerMessage) -> Bool {
        if case .error = message { return true }
        return false
    }

    /// Pairs `phone` with the code the computer shows.
    static func pair(_ phone: LoopbackPhone, _ setup: Setup) async throws {
        phone.send(#"{"type":"pairingRequest","timestamp":1}"#)
        _ = try await phone.read(until: isPairing)
        let code = try #require(setup.codes.last)
        phone.send(#"{"type":"pair","timestamp":2,"code":"\#(code)"}"#)
        let (messages, _) = try await phone.read(until: isPairing)
        #expect(messages.last == .pairing(PairingStatus(state: .paired, attemptsRemaining: 3)))
    }

    @Test("a ping is answered with a pong carrying the ping's timestamp and the computer's clock")
    func ping() async throws {
        let setup = try await Self.setUp()
        let phone = try LoopbackPhone(port: setup.port)
        // The computer's clock is read between the send and the answer, however slow a loaded machine makes them.
        let sent = Date().timeIntervalSince1970 * 1000
        phone.send(#"{"type":"ping","timestamp":1234.5}"#)
        let (messages, _) = try await phone.read(until: Self.isPong)
        let answered = Date().timeIntervalSince1970 * 1000
        guard case .pong(let ping, let received) = messages.last else { throw TestFailure("no pong: \(messages)") }
        #expect(ping == 1234.5)
        #expect(received >= sent - 1 && received <= answered + 1, "pong's clock \(received) outside [\(sent), \(answered)]")
        await setup.host.stop()
    }

    @Test("an unpaired session's commands inject nothing and are refused; paired, a batch injects in order")
    func pairing() async throws {
        let setup = try await Self.setUp()
        let phone = try LoopbackPhone(port: setup.port)
        phone.send(#"{"type":"leftClick","timestamp":1}"#)
        let (refused, _) = try await phone.read(until: Self.isError)
        guard case .error(let error) = refused.last else { throw TestFailure("\(refused)") }
        #expect(error.code == "notPaired")
        #expect(setup.sink.frames.isEmpty)
        try await Self.pair(phone, setup)
        phone.send(#"[{"type":"mouseMove","timestamp":3,"dx":10,"dy":-5},{"type":"rightClick","timestamp":4},{"type":"ping","timestamp":5}]"#)
        _ = try await phone.read(until: Self.isPong)
        #expect(setup.sink.frames == [
            InputFrame([InputEvent(.relX, 10), InputEvent(.relY, -5)]),
            InputFrame([InputEvent(.btnRight, 1)]), InputFrame([InputEvent(.btnRight, 0)]),
        ])
        await setup.host.stop()
    }

    @Test("malformed, unknown, oversized-in-JSON and non-monotonic frames are refused, inject nothing, and the connection stays usable",
          arguments: [
              #"{"type":"teleport","timestamp":5}"#, #"{"type":"mouseMove","timestamp":5,"dx":1}"#, #"not json"#,
              #"{"type":"mouseMove","timestamp":5,"dx":1,"dy":2,"extra":3}"#, #"[]"#, #"{"type":"mouseMove","timestamp":-1,"dx":1,"dy":2}"#,
              #"{"type":"mouseMove","timestamp":2,"dx":1,"dy":2}"#, #"{"type":"mouseMove","timestamp":5,"dx":1e9,"dy":2}"#,
          ])
    func refusals(_ frame: String) async throws {
        let setup = try await Self.setUp()
        let phone = try LoopbackPhone(port: setup.port)
        try await Self.pair(phone, setup)
        // The pairing above used timestamps 1 and 2; a frame at 2 is still monotonic, so go to 3 first.
        phone.send(#"{"type":"ping","timestamp":3}"#)
        _ = try await phone.read(until: Self.isPong)
        phone.send(frame)
        let (messages, ended) = try await phone.read(until: Self.isError)
        #expect(!ended)
        #expect(setup.sink.frames.isEmpty, "\(frame) injected \(setup.sink.frames)")
        phone.send(#"{"type":"leftClick","timestamp":10}"#)
        phone.send(#"{"type":"ping","timestamp":11}"#)
        _ = try await phone.read(until: Self.isPong)
        #expect(setup.sink.frames.count == 2, "the connection is not usable after \(frame): \(messages)")
        await setup.host.stop()
    }

    @Test("a frame length over the limit or zero closes the connection with a reason; a truncated frame injects nothing",
          arguments: [[0, 0, 0, 0] as [UInt8], [0, 1, 0, 1], [0xFF, 0xFF, 0xFF, 0xFF]])
    func badLength(_ header: [UInt8]) async throws {
        let setup = try await Self.setUp()
        let phone = try LoopbackPhone(port: setup.port)
        phone.sendRaw(header + [0x7B])
        let (messages, ended) = try await phone.read { _ in false }
        #expect(ended)
        guard case .error(let error) = messages.last else { throw TestFailure("no reason before closing: \(messages)") }
        #expect(error.code == "badFrame")
        #expect(error.message.contains("closing"))
        #expect(setup.sink.frames.isEmpty)
        await setup.host.stop()
    }

    @Test("a session that ends mid-drag, or stalls, lets go of the button")
    func sessionEnd() async throws {
        // 2 s: between the pong and the check below the computer must not stall; with 300 ms, a loaded machine
        // (the suite runs in parallel on two cores) let the deadline pass there and released the button.
        let setup = try await Self.setUp(stall: .seconds(2))
        let phone = try LoopbackPhone(port: setup.port)
        try await Self.pair(phone, setup)
        phone.send(#"{"type":"dragStart","timestamp":3}"#)
        phone.send(#"{"type":"ping","timestamp":4}"#)
        _ = try await phone.read(until: Self.isPong)
        #expect(setup.sink.frames.last == InputFrame([InputEvent(.btnLeft, 1)]))
        // Nothing for longer than the stall deadline: released, the connection stays.
        #expect(await eventually { setup.sink.frames.last == InputFrame([InputEvent(.btnLeft, 0)]) }, "not released: \(setup.sink.frames)")
        phone.send(#"{"type":"dragStart","timestamp":5}"#)
        phone.send(#"{"type":"ping","timestamp":6}"#)
        _ = try await phone.read(until: Self.isPong)
        #expect(setup.sink.frames.last == InputFrame([InputEvent(.btnLeft, 1)]))
        phone.socket.reset()
        #expect(await eventually { setup.sink.frames.last == InputFrame([InputEvent(.btnLeft, 0)]) }, "not released: \(setup.sink.frames)")
        await setup.host.stop()
    }

    @Test("equal timestamps are accepted, inside a batch and across frames; only going back is refused")
    func equalTimestamps() async throws {
        let setup = try await Self.setUp()
        let phone = try LoopbackPhone(port: setup.port)
        try await Self.pair(phone, setup)
        phone.send(#"[{"type":"mouseMove","timestamp":7,"dx":1,"dy":0},{"type":"mouseMove","timestamp":7,"dx":2,"dy":0}]"#)
        phone.send(#"[{"type":"mouseMove","timestamp":7,"dx":4,"dy":0},{"type":"ping","timestamp":7}]"#)
        _ = try await phone.read(until: Self.isPong)
        #expect(setup.sink.frames.flatMap(\.events).map(\.value) == [1, 2, 4])
        phone.send(#"{"type":"mouseMove","timestamp":6.5,"dx":8,"dy":0}"#)
        let (messages, _) = try await phone.read(until: Self.isError)
        #expect(messages.last == .error(StatusError(code: "nonMonotonic", message: "tcp:127.0.0.1: timestamp 6.5 is earlier than 7: frames must not go back in time")))
        await setup.host.stop()
    }

    @Test("a refused pinch or bindUDP gets an error message and an error status, as a refused command does",
          arguments: [(#"{"type":"pinchStart","timestamp":1}"#, "notPaired"), (#"{"type":"bindUDP","timestamp":1,"port":5000}"#, "noUDP")])
    func refusedMessagesPublishStatus(_ frame: String, _ code: String) async throws {
        let setup = try await Self.setUp()
        let phone = try LoopbackPhone(port: setup.port)
        phone.send(frame)
        let (messages, _) = try await phone.read(until: Self.isError)
        #expect(messages.contains { if case .error(let error) = $0 { error.code == code } else { false } }, "\(messages)")
        #expect(messages.contains { if case .status(let status) = $0 { status.error?.code == code } else { false } }, "no error status: \(messages)")
        await setup.host.stop()
    }

    @Test("a wrong code is answered with the refusal, then the pairing state")
    func wrongCode() async throws {
        let setup = try await Self.setUp()
        let phone = try LoopbackPhone(port: setup.port)
        phone.send(#"{"type":"pairingRequest","timestamp":1}"#)
        _ = try await phone.read(until: Self.isPairing)
        let code = try #require(setup.codes.last)
        let wrong = code == "000000" ? "111111" : "000000"
        phone.send(#"{"type":"pair","timestamp":2,"code":"\#(wrong)"}"#)
        let (messages, _) = try await phone.read(until: Self.isPairing)
        #expect(messages.contains { if case .error(let e) = $0 { e.code == "wrongCode" } else { false } }, "\(messages)")
        // The code's 60 s count down from the request: on a loaded machine seconds can pass between the two reads.
        guard case .pairing(let status) = messages.last else { throw TestFailure("no pairing state after the refusal: \(messages)") }
        #expect(status.state == .awaitingCode && status.attemptsRemaining == 2, "\(status)")
        #expect((1...60).contains(status.secondsRemaining ?? 0), "\(status)")
        await setup.host.stop()
    }
}
