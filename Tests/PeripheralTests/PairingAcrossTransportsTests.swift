import Foundation
import Peripheral
import RemoteTouchProtocol
import Testing

/// docs/protocol.md, "Pairing": a session is its transport and address, so pairing is per transport; the code and
/// the lockout are one for every transport.
@Suite("Pairing across transports over loopback: paired per transport, one lockout for all")
struct PairingAcrossTransportsTests {
    /// A host serving tcp and udp on loopback, both from 127.0.0.1 as the phone.
    static func setUp() async throws -> (tcp: TCPEndpointTests.Setup, udp: TCPEndpointTests.Setup) {
        let (host, sink, codes, _) = try ComputerHostTests.host(devnode: nil, endpoints: [.tcp, .udp])
        var tcpSettings = TCPSettings()
        tcpSettings.port = 0
        tcpSettings.avahiBus = nil
        var udpSettings = TCPSettings.udp()
        udpSettings.port = 0
        udpSettings.udpPort = 0
        let tcp = TCPEndpoint(settings: tcpSettings, log: host.log)
        let udp = TCPEndpoint(settings: udpSettings, log: host.log)
        try await host.start(tcp)
        try await host.start(udp)
        return (TCPEndpointTests.Setup(host: host, endpoint: tcp, sink: sink, codes: codes, port: try #require(tcp.port)),
                TCPEndpointTests.Setup(host: host, endpoint: udp, sink: sink, codes: codes, port: try #require(udp.port)))
    }

    static func refusal(_ messages: [ComputerMessage]) -> String? {
        for message in messages.reversed() { if case .error(let error) = message { return error.code } }
        return nil
    }

    @Test("paired over tcp, the udp control connection from the same address is not; its wrong codes lock pairing for every transport")
    func perTransportPairingSharedLockout() async throws {
        let (tcp, udp) = try await Self.setUp()
        let tcpPhone = try LoopbackPhone(port: tcp.port)
        try await TCPEndpointTests.pair(tcpPhone, tcp)
        let udpPhone = try LoopbackPhone(port: udp.port)
        udpPhone.send(#"{"type":"leftClick","timestamp":1}"#)
        let (refused, _) = try await udpPhone.read(until: TCPEndpointTests.isError)
        #expect(Self.refusal(refused) == "notPaired", "\(refused)")
        #expect(tcp.sink.frames.isEmpty)

        udpPhone.send(#"{"type":"pairingRequest","timestamp":2}"#)
        _ = try await udpPhone.read(until: TCPEndpointTests.isPairing)
        let code = try #require(tcp.codes.last)
        let wrong = code == "000000" ? "111111" : "000000"
        var last: [ComputerMessage] = []
        for attempt in 0..<3 {
            udpPhone.send(#"{"type":"pair","timestamp":\#(3 + attempt),"code":"\#(wrong)"}"#)
            (last, _) = try await udpPhone.read(until: TCPEndpointTests.isPairing)
        }
        #expect(Self.refusal(last) == "lockedOut", "\(last)")
        // The lockout is the computer's, not the udp transport's: a BLE central and a new tcp address meet it too.
        let ble = try PairingStatus.decode(tcp.host.pairingRead(by: "00:AA:01:00:00:01"))
        #expect(ble.state == .lockedOut, "\(ble)")
        #expect(try tcp.host.pairingWrite(Array(code.utf8), by: "tcp:10.77.0.9")?.code == "lockedOut")
        // What was paired stays paired.
        tcpPhone.send(#"[{"type":"leftClick","timestamp":10},{"type":"ping","timestamp":11}]"#)
        _ = try await tcpPhone.read(until: TCPEndpointTests.isPong)
        #expect(tcp.sink.frames.count == 2, "\(tcp.sink.frames)")
        await tcp.host.stop()
    }

    @Test("one code at a time: a second session asking sees the same code, and whoever enters it first pairs")
    func oneCode() async throws {
        let (tcp, _) = try await Self.setUp()
        _ = tcp.host.pairingRead(by: "tcp:10.77.0.2")
        let second = try PairingStatus.decode(tcp.host.pairingRead(by: "udp:10.77.0.2"))
        #expect(tcp.codes.all.count == 1, "a second code was shown: \(tcp.codes.all)")
        #expect(second.state == .awaitingCode)
        let code = try #require(tcp.codes.last)
        #expect(try tcp.host.pairingWrite(Array(code.utf8), by: "udp:10.77.0.2") == nil)
        #expect(try tcp.host.pairingWrite(Array(code.utf8), by: "tcp:10.77.0.2")?.code == "noCode")
        await tcp.host.stop()
    }
}
