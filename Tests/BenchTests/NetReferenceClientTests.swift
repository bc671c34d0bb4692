@testable import Bench
import Foundation
import HILTestSupport
import RemoteTouchProtocol
import RigControl
import Testing

/// Rigs/reference/net_bench_client.py, run as `hil bench --reference` runs it (`ReferenceClient.run`), against a
/// loopback computer that decodes what it sends with the project's own strict decoders (`FakeNetworkComputer`).
@Suite("hil bench: the network reference client against a loopback computer")
struct NetReferenceClientTests {
    static let script = packageRoot.appendingPathComponent("Rigs/reference/net_bench_client.py").path

    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "net-reference-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func client(_ transport: String, _ computer: FakeNetworkComputer) -> ReferenceClient {
        ReferenceClient.network(
            script: script, transport: transport, hosts: ReferenceClientTests.hosts.with(address: "127.0.0.1"), codeFile: computer.codeFile,
            ip: nil, port: computer.port, udpPort: computer.udpPort)
    }

    @Test("tcp: pairs with the code the computer shows, sets basic mouse, then streams mouseMoves in at most one frame per 8 ms, each stamped before it left")
    func tcp() async throws {
        let folder = try Self.folder()
        let computer = try FakeNetworkComputer(codeFile: folder + "/pairing-code")
        defer { computer.stop() }
        let outcome = try await Self.client("tcp", computer).run(rate: 200, count: 40, name: folder + "/python-tcp-0")

        #expect(outcome.sends.map(\.payload) == (0..<40).map { "{\"cursorMove\":{\"delta\":[\($0 + 1),0]}}" })
        let state = computer.snapshot
        #expect(state.refusedFrames.isEmpty)
        let types = state.frames.flatMap(\.messages).map(\.type)
        // Paired with the code from the file, basic mouse set and confirmed by a ping, before the first move.
        #expect(Array(types.prefix(4)) == ["pairingRequest", "pair", "modeChange", "ping"])
        #expect(state.frames.flatMap(\.messages).contains { $0.body == .command(.modeChange(mode: .basicMouse)) })
        let moves = state.frames.compactMap { frame -> (at: UInt64, deltas: [Point])? in
            let deltas = frame.messages.compactMap { message -> Point? in
                if case .command(.cursorMove(let delta)) = message.body { return delta }
                return nil
            }
            return deltas.isEmpty ? nil : (frame.at, deltas)
        }
        // What arrived is what the sends file says was sent, in order: the receipts will match it.
        #expect(moves.flatMap(\.deltas) == (0..<40).map { Point(x: Double($0 + 1), y: 0) })
        // 200 Hz is faster than the protocol's 120 Hz frames: some moves waited for the next frame, as a batch.
        #expect(moves.contains { $0.deltas.count > 1 } && moves.allSatisfy { $0.deltas.count <= 64 })
        #expect(moves.count < 40)
        let stamps = state.frames.flatMap(\.messages).map(\.timestamp)
        #expect(stamps == stamps.sorted())
        // Send times are CLOCK_MONOTONIC, as the receipts': each move arrived after it was stamped, and soon after.
        var index = 0
        for frame in moves {
            for _ in frame.deltas {
                let lag = Int64(frame.at) - Int64(outcome.sends[index].at)
                #expect(lag >= 0 && lag < 5_000_000_000, "move \(index): arrived \(lag) ns after its send time")
                index += 1
            }
        }
        // The client's rate is its sends over the span from the first to the last: 40 sends at exactly 200 Hz span 39
        // intervals, 205.1 Hz (the bound was 205, and a run paced exactly failed it).
        #expect(outcome.achievedHz > 50 && outcome.achievedHz <= 200 * 40 / 39 * 1.02, "\(outcome.achievedHz) Hz")
    }

    @Test("udp: already paired from this address, binds its own UDP port, then one 5-byte packet a command from that port")
    func udp() async throws {
        let folder = try Self.folder()
        let computer = try FakeNetworkComputer(codeFile: folder + "/pairing-code", alreadyPaired: true)
        defer { computer.stop() }
        let outcome = try await Self.client("udp", computer).run(rate: 500, count: 130, name: folder + "/python-udp-0")

        let expected: [String] = (0..<130).map { (index: Int) -> String in
            let packet = UDPPacket(dx: 1 + index % 127, dy: index / 127 % 127)
            return "udp " + PointerPayload.hex(packet.encoded())
        }
        #expect(outcome.sends.map(\.payload) == expected)
        #expect(outcome.sends[127].payload == "udp aa00010100")
        let state = computer.snapshot
        // Paired already: no code entered.
        #expect(!state.frames.flatMap(\.messages).map(\.type).contains("pair"))
        let bound = try #require(state.boundPort)
        #expect(state.datagrams.map(\.text) == expected)
        #expect(state.datagrams.allSatisfy { $0.port == bound })
        for (datagram, send) in zip(state.datagrams, outcome.sends) {
            #expect(datagram.at >= send.at, "\(send.payload) arrived before its send time")
        }
    }

    @Test("a code the computer refuses: the run fails naming the client and what it printed")
    func wrongCode() async throws {
        let folder = try Self.folder()
        let computer = try FakeNetworkComputer(codeFile: folder + "/pairing-code", code: "123456", writtenCode: "654321")
        defer { computer.stop() }
        let error = await #expect(throws: BenchError.self) {
            _ = try await Self.client("tcp", computer).run(rate: 100, count: 10, name: folder + "/python-tcp-0")
        }
        let message = error?.description ?? ""
        #expect(message.contains("python-tcp") && message.contains("net_bench_client.py") && message.contains("exited with status 1"))
        #expect(message.contains("refused the code") && message.contains("wrongCode"))
        #expect(computer.snapshot.frames.flatMap(\.messages).allSatisfy { if case .command(.cursorMove) = $0.body { false } else { true } })
    }

    @Test("no computer listening: the run fails with the client's reason")
    func nobodyThere() async throws {
        let folder = try Self.folder()
        let computer = try FakeNetworkComputer(codeFile: folder + "/pairing-code")
        let client = Self.client("tcp", computer)
        computer.stop()
        let error = await #expect(throws: BenchError.self) {
            _ = try await client.run(rate: 100, count: 10, name: folder + "/python-tcp-0")
        }
        #expect(error?.description.contains("cannot connect to the computer at 127.0.0.1") == true)
    }
}

extension NetworkHosts {
    func with(address: String) -> NetworkHosts {
        var hosts = self
        hosts.computerAddress = address
        return hosts
    }
}
