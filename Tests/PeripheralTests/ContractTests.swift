import Foundation
import InputCodes
import NetSocket
@testable import Peripheral
import RemoteTouchProtocol
import Testing

/// What a phone author had to guess from docs/protocol.md, settled there and held here (issue "Any phone, any
/// stack", item 4): each test names the doc's sentence it keeps true.
@Suite("docs/protocol.md's settled points: unknown values, modifier order, pair without a code, timestamps, stalls")
struct ContractTests {
    typealias TCP = TCPEndpointTests

    @Test("an unknown value of a string field is a payload that does not decode: invalidCommand on ble, invalidFrame on tcp",
          arguments: [(#"{"keyPress":{"key":"f13"}}"#, #"{"type":"keyPress","timestamp":3,"key":"f13"}"#),
                      (#"{"systemGesture":{"gesture":"zoom"}}"#, #"{"type":"systemGesture","timestamp":3,"gesture":"zoom"}"#),
                      (#"{"button":{"action":"up"}}"#, #"{"type":"button","timestamp":3,"action":"up"}"#),
                      (#"{"modeChange":{"mode":"gaming"}}"#, #"{"type":"modeChange","timestamp":3,"mode":"gaming"}"#)])
    func unknownValues(ble: String, tcp: String) async throws {
        let (processor, sink, _) = try CommandProcessorTests().setUp()
        guard case .refused(let refusal) = processor.handle(Array(ble.utf8), from: "00:AA:01:01:00:01") else {
            throw TestFailure("\(ble) was not refused")
        }
        #expect(refusal.code == "invalidCommand")
        #expect(sink.frames.isEmpty)
        let setup = try await TCP.setUp()
        let phone = try LoopbackPhone(port: setup.port)
        try await TCP.pair(phone, setup)
        phone.send(tcp)
        let (messages, _) = try await phone.read(until: TCP.isError)
        guard case .error(let error) = messages.last else { throw TestFailure("\(messages)") }
        #expect(error.code == "invalidFrame", "\(tcp): \(error)")
        #expect(setup.sink.frames.isEmpty)
        await setup.host.stop()
    }

    @Test("modifiers are pressed in the order the list gives them, then the key; released in reverse")
    func modifierOrder() throws {
        let (processor, sink, _) = try CommandProcessorTests().setUp()
        _ = processor.handle(Array(#"{"keyPress":{"key":"c","modifiers":["shift","command"]}}"#.utf8), from: "00:AA:01:01:00:01")
        _ = processor.handle(Array(#"{"keyPress":{"key":"c","modifiers":["command","shift"]}}"#.utf8), from: "00:AA:01:01:00:01")
        let keys = sink.frames.flatMap(\.events).map(\.description)
        #expect(keys == ["KEY_LEFTSHIFT 1", "KEY_LEFTMETA 1", "KEY_C 1", "KEY_C 0", "KEY_LEFTMETA 0", "KEY_LEFTSHIFT 0",
                         "KEY_LEFTMETA 1", "KEY_LEFTSHIFT 1", "KEY_C 1", "KEY_C 0", "KEY_LEFTSHIFT 0", "KEY_LEFTMETA 0"])
    }

    @Test("pair with no code shown: noCode, no attempt counted, and the pairing answer is a read's, which shows a fresh code")
    func pairWithoutCode() async throws {
        let setup = try await TCP.setUp()
        let phone = try LoopbackPhone(port: setup.port)
        phone.send(#"{"type":"pair","timestamp":1,"code":"123456"}"#)
        let (messages, _) = try await phone.read(until: TCP.isPairing)
        #expect(messages.contains { if case .error(let error) = $0 { error.code == "noCode" } else { false } }, "\(messages)")
        #expect(messages.last == .pairing(PairingStatus(state: .awaitingCode, attemptsRemaining: 3, secondsRemaining: 60)))
        #expect(setup.codes.last != nil, "the answer showed a code")
        await setup.host.stop()
    }

    @Test("a timestamp both out of range and below the mark is invalidFrame: the frame is decoded before its order is checked")
    func outOfRangeWins() async throws {
        let setup = try await TCP.setUp()
        let phone = try LoopbackPhone(port: setup.port)
        try await TCP.pair(phone, setup)
        phone.send(#"{"type":"mouseMove","timestamp":100,"dx":1,"dy":0}"#)
        phone.send(#"{"type":"mouseMove","timestamp":-1,"dx":2,"dy":0}"#)
        let (messages, _) = try await phone.read(until: TCP.isError)
        guard case .error(let error) = messages.last else { throw TestFailure("\(messages)") }
        #expect(error.code == "invalidFrame")
        await setup.host.stop()
    }

    @Test("the 10^12 timestamp limit is inclusive: 1000000000000 is taken, anything above refused")
    func timestampLimit() throws {
        let taken = try PhoneMessage.decodeFrame(Array(#"{"type":"ping","timestamp":1000000000000}"#.utf8))
        #expect(taken.first?.timestamp == 1e12)
        #expect(throws: ProtocolError.self) { try PhoneMessage.decodeFrame(Array(#"{"type":"ping","timestamp":1000000000000.5}"#.utf8)) }
        #expect(throws: ProtocolError.self) { try PhoneMessage.decodeFrame(Array(#"{"type":"ping","timestamp":1e13}"#.utf8)) }
    }

    @Test("a stalled session is released at its deadline, never before: nothing for the stall timeout after the last frame")
    func stallNotEarly() async throws {
        let stall = Duration.seconds(2)
        let setup = try await TCP.setUp(stall: stall)
        let phone = try LoopbackPhone(port: setup.port)
        try await TCP.pair(phone, setup)
        phone.send(#"{"type":"dragStart","timestamp":3}"#)
        // The deadline runs from the last frame's arrival, which is after this.
        let lastFrame = ContinuousClock.now
        phone.send(#"{"type":"ping","timestamp":4}"#)
        _ = try await phone.read(until: TCP.isPong)
        #expect(await eventually { setup.sink.frames.last == InputFrame([InputEvent(.btnLeft, 0)]) }, "not released: \(setup.sink.frames)")
        let released = ContinuousClock.now - lastFrame
        #expect(released >= stall, "released \(released) after the last frame, before the \(stall) deadline")
        print("stall: released \(released) after the last frame (deadline \(stall))")
        await setup.host.stop()
    }
}

@Suite("docs/computer.md's receipts and log totals for refused udp packets")
struct RefusedUDPRecordTests {
    @Test("a packet from a source no session is bound to: a receipt line `- udp <hex> from <source>`, and a total per source at the stop")
    func refusedUDP() async throws {
        let folder = NSTemporaryDirectory() + "hil-udp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = PeripheralConfiguration(stateDirectory: folder)
        configuration.endpoints = [.udp]
        configuration.statusInterval = .seconds(3600)
        let pairing = try PairingAuthority(stateFile: nil, onCodeShown: ShownCodes().record)
        let log = PeripheralLog(path: folder + "/peripheral.log", echo: false)
        let receipts = try ReceiptLog(path: folder + "/receipts.log")
        let processor = CommandProcessor(sink: RecordingSink(), pairing: pairing, log: log, receipts: receipts)
        let host = ComputerHost(configuration: configuration, log: log, pairing: pairing, processor: processor, devnode: nil)
        var settings = TCPSettings.udp()
        settings.port = 0
        settings.udpPort = 0
        settings.avahiBus = nil
        let endpoint = TCPEndpoint(settings: settings, log: log)
        try await host.start(endpoint)
        let forger = try UDPSocket.bind(port: 0, netns: nil)
        let source = "127.0.0.1:\(forger.localPort ?? 0)"
        for _ in 0..<2 { forger.send(UDPPacket(dx: 5, dy: -5).encoded(), to: "127.0.0.1", port: try #require(endpoint.udpPort)) }
        #expect(await eventually { endpoint.movement?.refused[source] == 2 })
        await host.stop()
        let lines = try String(contentsOfFile: folder + "/receipts.log", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 1)
            #expect(UInt64(parts[0]) != nil && parts[1] == "- udp aa0005fb00 from \(source)", "\(line)")
        }
        let logged = try String(contentsOfFile: folder + "/peripheral.log", encoding: .utf8)
        #expect(logged.contains("refused 2 UDP packet(s) from \(source): no paired session was bound to it\n"), "\(logged)")
    }
}
