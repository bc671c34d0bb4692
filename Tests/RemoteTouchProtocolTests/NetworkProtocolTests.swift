import RemoteTouchProtocol
import StrictJSON
import Testing

/// The TCP transport's golden vectors (docs/protocol.md, "TCP transport"): each message's exact bytes.
let networkVectors: [(message: PhoneMessage, json: String)] = [
    (PhoneMessage(timestamp: 1532.25, .ping), #"{"type":"ping","timestamp":1532.25}"#),
    (PhoneMessage(timestamp: 1, .pairingRequest), #"{"type":"pairingRequest","timestamp":1}"#),
    (PhoneMessage(timestamp: 2, .pair(code: "042137")), #"{"type":"pair","timestamp":2,"code":"042137"}"#),
    (PhoneMessage(timestamp: 2.5, .bindUDP(port: 50123)), #"{"type":"bindUDP","timestamp":2.5,"port":50123}"#),
    (PhoneMessage(timestamp: 3, .command(.cursorMove(delta: Point(x: 10, y: -5)))), #"{"type":"mouseMove","timestamp":3,"dx":10,"dy":-5}"#),
    (PhoneMessage(timestamp: 4, .command(.tap(type: .single))), #"{"type":"leftClick","timestamp":4}"#),
    (PhoneMessage(timestamp: 5, .command(.tap(type: .double))), #"{"type":"doubleClick","timestamp":5}"#),
    (PhoneMessage(timestamp: 6, .command(.rightClick)), #"{"type":"rightClick","timestamp":6}"#),
    (PhoneMessage(timestamp: 7, .command(.scroll(dx: 0, dy: -12))), #"{"type":"scroll","timestamp":7,"dx":0,"dy":-12}"#),
    (PhoneMessage(timestamp: 8, .pinchStart), #"{"type":"pinchStart","timestamp":8}"#),
    (PhoneMessage(timestamp: 9, .command(.pinch(scale: 1.5))), #"{"type":"pinchUpdate","timestamp":9,"scale":1.5}"#),
    (PhoneMessage(timestamp: 10, .pinchEnd), #"{"type":"pinchEnd","timestamp":10}"#),
    (PhoneMessage(timestamp: 11, .command(.dragStart)), #"{"type":"dragStart","timestamp":11}"#),
    (PhoneMessage(timestamp: 12, .command(.dragMove(delta: Point(x: 4, y: 2)))), #"{"type":"dragMove","timestamp":12,"dx":4,"dy":2}"#),
    (PhoneMessage(timestamp: 13, .command(.dragEnd)), #"{"type":"dragEnd","timestamp":13}"#),
    (PhoneMessage(timestamp: 14, .command(.systemGesture(gesture: .missionControl))),
     #"{"type":"systemGesture","timestamp":14,"gesture":"missionControl"}"#),
    (PhoneMessage(timestamp: 15, .command(.keyPress(key: .c, modifiers: [.command]))),
     #"{"type":"keyPress","timestamp":15,"key":"c","modifiers":["command"]}"#),
    (PhoneMessage(timestamp: 16, .command(.text(string: "Hi"))), #"{"type":"text","timestamp":16,"string":"Hi"}"#),
    (PhoneMessage(timestamp: 17, .command(.button(action: .back))), #"{"type":"button","timestamp":17,"action":"back"}"#),
    (PhoneMessage(timestamp: 18, .command(.modeChange(mode: .presentation))), #"{"type":"modeChange","timestamp":18,"mode":"presentation"}"#),
    (PhoneMessage(timestamp: 19, .command(.mediaControl(action: .playPause))), #"{"type":"mediaControl","timestamp":19,"action":"playPause"}"#),
]

@Suite("The TCP transport's framing and messages (docs/protocol.md)")
struct NetworkProtocolTests {
    @Test("every message type encodes to its golden bytes and decodes back", arguments: networkVectors.indices)
    func golden(_ index: Int) throws {
        let (message, json) = networkVectors[index]
        #expect(String(decoding: PhoneMessage.frameBody([message]), as: UTF8.self) == json)
        #expect(try PhoneMessage.decodeFrame(Array(json.utf8)) == [message])
    }

    @Test("every message type has a golden vector")
    func everyType() {
        #expect(Set(networkVectors.map(\.message.type)) == Set(PhoneMessage.types))
    }

    @Test("every command survives the trip through a message unchanged, so the receipts match what the phone sent",
          arguments: commandVectors.indices)
    func commandRoundTrip(_ index: Int) throws {
        let command = commandVectors[index].command
        let body = PhoneMessage.frameBody([PhoneMessage(timestamp: 1, .command(command))])
        let decoded = try PhoneMessage.decodeFrame(body)
        #expect(decoded.count == 1)
        guard case .command(let back) = decoded[0].body else { throw ProtocolError(.invalid, payload: "test", "not a command") }
        #expect(back.encoded() == command.encoded())
    }

    @Test("a frame is a 4-byte big-endian length and the body; a batch is an array")
    func framing() throws {
        let body = PhoneMessage.frameBody([PhoneMessage(timestamp: 1, .ping), PhoneMessage(timestamp: 2, .command(.dragEnd))])
        #expect(String(decoding: body, as: UTF8.self) == #"[{"type":"ping","timestamp":1},{"type":"dragEnd","timestamp":2}]"#)
        let frame = NetworkFrame.encode(body)
        #expect(Array(frame.prefix(4)) == [0, 0, 0, UInt8(body.count)])
        // Arriving a byte at a time, two frames back to back.
        var reader = NetworkFrame.Reader()
        var bodies: [[UInt8]] = []
        for byte in frame + NetworkFrame.encode([0x31]) {
            reader.append([byte])
            while case .frame(let body)? = reader.next() { bodies.append(body) }
        }
        #expect(bodies == [body, [0x31]])
        #expect(reader.pending == 0)
    }

    @Test("a header of 0 or over 16384 bytes cannot be followed", arguments: [UInt32(0), 16_385, .max])
    func badLength(_ length: UInt32) {
        var reader = NetworkFrame.Reader()
        reader.append([UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
        #expect(reader.next() == .badLength(length))
    }

    @Test("refusals name the message's own fields", arguments: [
        (#"{"type":"mouseMove","timestamp":1,"dx":1e9,"dy":0}"#, "dx"),
        (#"[{"type":"ping","timestamp":1},{"type":"scroll","timestamp":2,"dx":0}]"#, "[1]: missing"),
        (#"{"type":"teleport","timestamp":1}"#, "type: unknown message type"),
        (#"{"type":"pair","timestamp":1,"code":"12345"}"#, "code: a pairing code is 6 digits"),
        (#"{"type":"bindUDP","timestamp":1,"port":0}"#, "port: a UDP port is a whole number in 1…65535; found 0"),
        (#"{"type":"bindUDP","timestamp":1,"port":65536}"#, "port: a UDP port is a whole number in 1…65535; found 65536"),
        (#"{"type":"bindUDP","timestamp":1,"port":1.5}"#, "port: a UDP port is a whole number in 1…65535; found 1.5"),
        (#"{"type":"bindUDP","timestamp":1}"#, "missing"),
        (#"{"type":"ping"}"#, "timestamp"),
        (#"{"type":"pinchUpdate","timestamp":1,"scale":500}"#, "scale"),
    ])
    func refusals(_ frame: String, _ expected: String) {
        #expect(throws: ProtocolError.self) { try PhoneMessage.decodeFrame(Array(frame.utf8)) }
        do {
            _ = try PhoneMessage.decodeFrame(Array(frame.utf8))
        } catch {
            #expect(error.description.contains(expected), "\(error)")
        }
    }

    @Test("the computer's messages round-trip")
    func computerMessages() throws {
        let messages: [ComputerMessage] = [
            .pong(pingTimestamp: 12.5, receivedAt: 1_700_000_000_123),
            .pairing(PairingStatus(state: .awaitingCode, attemptsRemaining: 3, secondsRemaining: 60)),
            .status(StatusData(batteryLevel: 80, timestamp: 100, connectionQuality: 100, error: StatusError(code: "notPaired", message: "x"))),
            .error(StatusError(code: "invalidFrame", message: "bad")),
            .udpBound(address: "10.77.0.2", port: 50123),
        ]
        for message in messages {
            let frame = message.frame()
            #expect(try ComputerMessage.decode(frame.dropFirst(4)) == message)
        }
        #expect(String(decoding: ComputerMessage.pong(pingTimestamp: 1, receivedAt: 2).frame().dropFirst(4), as: UTF8.self)
            == #"{"type":"pong","timestamp":1,"receivedAt":2}"#)
        #expect(String(decoding: ComputerMessage.udpBound(address: "10.77.0.2", port: 50123).frame().dropFirst(4), as: UTF8.self)
            == #"{"type":"udpBound","address":"10.77.0.2","port":50123}"#)
    }

    @Test("a udpBound port outside 1…65535 is refused with the range and the port as written", arguments: [
        ("0", "found 0"), ("65536", "found 65536"), ("80.5", "found 80.5"),
    ])
    func udpBoundPort(_ port: String, _ found: String) {
        let bytes = Array(#"{"type":"udpBound","address":"10.77.0.2","port":\#(port)}"#.utf8)
        do {
            _ = try ComputerMessage.decode(bytes)
            Issue.record("port \(port) was accepted")
        } catch {
            #expect(error.description.contains("port: a UDP port is a whole number in 1…65535; \(found)"), "\(error)")
        }
    }
}
