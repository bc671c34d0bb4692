import Foundation
import InputCodes
import NetSocket
@testable import Peripheral
import RemoteTouchProtocol
import Synchronization
import Testing

@Suite("The udp transport over loopback: movement only from the source a paired control session bound")
struct UDPEndpointTests {
    struct Setup {
        var tcp: TCPEndpointTests.Setup
        var udpPort: UInt16
    }

    /// `stall` is long by default, so that a slow machine never sees a session stall (and release) in the middle of
    /// a test.
    static func setUp(stall: Duration = .seconds(60), pressWait: Duration = .milliseconds(50)) async throws -> Setup {
        let (host, sink, codes, _) = try ComputerHostTests.host(devnode: nil)
        var settings = TCPSettings.udp()
        settings.port = 0
        settings.udpPort = 0
        settings.stallTimeout = stall
        settings.pressWait = pressWait
        let endpoint = TCPEndpoint(settings: settings, log: host.log)
        try await host.start(endpoint)
        #expect(endpoint.name == "udp")
        let tcp = TCPEndpointTests.Setup(host: host, endpoint: endpoint, sink: sink, codes: codes, port: try #require(endpoint.port))
        return Setup(tcp: tcp, udpPort: try #require(endpoint.udpPort))
    }

    /// A phone paired over `setup`'s control connection, with a movement socket bound to its session; the messages
    /// the computer sent up to and with `udpBound`.
    static func boundPhone(_ setup: Setup) async throws -> (phone: LoopbackPhone, movement: UDPSocket, messages: [ComputerMessage]) {
        let phone = try LoopbackPhone(port: setup.tcp.port)
        let movement = try UDPSocket.bind(port: 0, netns: nil)
        try await TCPEndpointTests.pair(phone, setup.tcp)
        phone.send(#"{"type":"bindUDP","timestamp":3,"port":\#(movement.localPort ?? 0)}"#)
        let (messages, _) = try await phone.read(until: Self.isBound)
        return (phone, movement, messages)
    }

    static func isBound(_ message: ComputerMessage) -> Bool {
        if case .udpBound = message { return true }
        return false
    }

    /// Sends 0xAA packets of `dx` from `socket` (the endpoint handles them in order, on one thread).
    static func move(_ socket: UDPSocket, to port: UInt16, dx: [Int]) {
        for value in dx { socket.send(UDPPacket(dx: value, dy: 0).encoded(), to: "127.0.0.1", port: port) }
    }

    static func source(_ socket: UDPSocket) -> String { "127.0.0.1:\(socket.localPort ?? 0)" }

    /// Waits until the endpoint has refused `count` packets from `socket` in all.
    static func refused(_ count: Int, from socket: UDPSocket, _ setup: Setup) async -> Bool {
        await eventually { setup.tcp.endpoint.movement?.refused[source(socket)] == count }
    }

    static func relX(_ sink: RecordingSink) -> Int {
        sink.frames.flatMap(\.events).filter { $0.code == .relX }.map { Int($0.value) }.reduce(0, +)
    }

    @Test("bound after pairing, the phone's packets move the pointer; another socket's, and the same socket's after the session ended, do not")
    func binding() async throws {
        let setup = try await Self.setUp()
        let (phone, movement, messages) = try await Self.boundPhone(setup)
        let forger = try UDPSocket.bind(port: 0, netns: nil)
        #expect(messages.last == .udpBound(address: "127.0.0.1", port: movement.localPort ?? 0))
        Self.move(movement, to: setup.udpPort, dx: [5, 7])
        #expect(await eventually { Self.relX(setup.tcp.sink) == 12 }, "the bound source's packets: \(setup.tcp.sink.frames)")
        Self.move(forger, to: setup.udpPort, dx: Array(repeating: 9, count: 50))
        #expect(await Self.refused(50, from: forger, setup), "\(setup.tcp.endpoint.movement?.refused ?? [:])")
        #expect(Self.relX(setup.tcp.sink) == 12, "a packet from another port was injected")
        phone.socket.close()
        #expect(await eventually { setup.tcp.endpoint.movement?.bound.isEmpty == true }, "the session's end did not unbind")
        Self.move(movement, to: setup.udpPort, dx: [20])
        #expect(await Self.refused(1, from: movement, setup))
        #expect(Self.relX(setup.tcp.sink) == 12, "a packet after the session ended was injected")
        await setup.tcp.host.stop()
    }

    @Test("a drag held over control lives past the stall deadline while bound movement arrives; silence on both releases it")
    func movementKeepsTheSessionAlive() async throws {
        // A 2 s deadline, 20 packet intervals. The packets go from a thread of their own: the suite runs in
        // parallel on two cores, and a task's sleep there overran by seconds. Should the thread still be held up
        // half a deadline, the run says so rather than blame the computer.
        let setup = try await Self.setUp(stall: .seconds(2))
        let phone = try LoopbackPhone(port: setup.tcp.port)
        let movement = try UDPSocket.bind(port: 0, netns: nil)
        try await TCPEndpointTests.pair(phone, setup.tcp)
        phone.send(#"[{"type":"bindUDP","timestamp":3,"port":\#(movement.localPort ?? 0)},{"type":"dragStart","timestamp":4}]"#)
        _ = try await phone.read(until: Self.isBound)
        #expect(await eventually { setup.tcp.sink.frames == [InputFrame([.press(.btnLeft)])] }, "\(setup.tcp.sink.frames)")
        // Three stall deadlines of movement over UDP alone, a packet every 100 ms: the control connection is quiet.
        let sender = Mutex<(done: Bool, longestGap: Duration)>((false, .zero))
        let port = setup.udpPort
        Thread.detachNewThread {
            var last = ContinuousClock.now
            for _ in 0..<60 {
                Self.move(movement, to: port, dx: [1])
                usleep(100_000)
                let now = ContinuousClock.now
                sender.withLock { $0.longestGap = max($0.longestGap, now - last) }
                last = now
            }
            sender.withLock { $0.done = true }
        }
        #expect(await eventually(within: .seconds(60)) { sender.withLock { $0.done } })
        #expect(await eventually { Self.relX(setup.tcp.sink) == 60 }, "\(setup.tcp.sink.frames)")
        let longestGap = sender.withLock { $0.longestGap }
        try #require(longestGap < .seconds(1), "the machine held the sender up \(longestGap) between two packets: too loaded to judge")
        #expect(!setup.tcp.sink.frames.contains(InputFrame([.release(.btnLeft)])), "released while movement arrived: \(setup.tcp.sink.frames)")
        // Nothing on either: the stall deadline releases the button.
        #expect(await eventually { setup.tcp.sink.frames.last == InputFrame([.release(.btnLeft)]) }, "not released: \(setup.tcp.sink.frames)")
        await setup.tcp.host.stop()
    }

    @Test("a drag's first packet, ahead of its dragStart over control, waits for the press: the button goes down before the pointer moves")
    func movementWaitsForItsPress() async throws {
        // A wait far longer than the suite's load can hold the test up between the packet and the dragStart.
        let setup = try await Self.setUp(pressWait: .seconds(30))
        let (phone, movement, _) = try await Self.boundPhone(setup)
        // The packet says the left button is held; the dragStart comes 10 ms later.
        movement.send(UDPPacket(buttons: .left, dx: 6, dy: 0).encoded(), to: "127.0.0.1", port: setup.udpPort)
        try await Task.sleep(for: .milliseconds(10))
        phone.send(#"{"type":"dragStart","timestamp":4}"#)
        #expect(await eventually { Self.relX(setup.tcp.sink) == 6 }, "\(setup.tcp.sink.frames)")
        #expect(setup.tcp.sink.frames.first == InputFrame([.press(.btnLeft)]), "moved before the press: \(setup.tcp.sink.frames)")
        // Held now: the next packet does not wait.
        movement.send(UDPPacket(buttons: .left, dx: 1, dy: 0).encoded(), to: "127.0.0.1", port: setup.udpPort)
        #expect(await eventually { Self.relX(setup.tcp.sink) == 7 }, "\(setup.tcp.sink.frames)")
        await setup.tcp.host.stop()
    }

    @Test("a second drag's first packet waits for its press too, though the last packet of the first drag announced the same button")
    func secondDragWaitsForItsPress() async throws {
        let setup = try await Self.setUp(pressWait: .milliseconds(500))
        let (phone, movement, _) = try await Self.boundPhone(setup)
        // A first drag whose last packet holds the left button; then the finger lifts (no packet) and the dragEnd goes.
        phone.send(#"{"type":"dragStart","timestamp":4}"#)
        #expect(await eventually { setup.tcp.sink.frames.contains(InputFrame([.press(.btnLeft)])) }, "\(setup.tcp.sink.frames)")
        movement.send(UDPPacket(buttons: .left, dx: 3, dy: 0).encoded(), to: "127.0.0.1", port: setup.udpPort)
        #expect(await eventually { Self.relX(setup.tcp.sink) == 3 }, "\(setup.tcp.sink.frames)")
        phone.send(#"{"type":"dragEnd","timestamp":5}"#)
        #expect(await eventually { setup.tcp.sink.frames.last == InputFrame([.release(.btnLeft)]) }, "\(setup.tcp.sink.frames)")
        // Over the wait later, a second drag: its first packet ahead of its dragStart must wait for the press.
        try await Task.sleep(for: .milliseconds(600))
        let before = setup.tcp.sink.frames.count
        movement.send(UDPPacket(buttons: .left, dx: 6, dy: 0).encoded(), to: "127.0.0.1", port: setup.udpPort)
        try await Task.sleep(for: .milliseconds(20))
        phone.send(#"{"type":"dragStart","timestamp":6}"#)
        #expect(await eventually { Self.relX(setup.tcp.sink) == 9 }, "\(setup.tcp.sink.frames)")
        #expect(setup.tcp.sink.frames.dropFirst(before).first == InputFrame([.press(.btnLeft)]),
                "the second drag moved before its press: \(setup.tcp.sink.frames.dropFirst(before))")
        await setup.tcp.host.stop()
    }

    @Test("a packet announcing a button no control message presses goes after the wait, and presses nothing")
    func announcedPressNeverComes() async throws {
        let setup = try await Self.setUp(pressWait: .seconds(2))
        let (phone, movement, _) = try await Self.boundPhone(setup)
        let sent = ContinuousClock.now
        movement.send(UDPPacket(buttons: .right, dx: 4, dy: 0).encoded(), to: "127.0.0.1", port: setup.udpPort)
        #expect(await eventually { Self.relX(setup.tcp.sink) == 4 }, "\(setup.tcp.sink.frames)")
        #expect(ContinuousClock.now - sent >= .seconds(2), "injected before the wait was over")
        #expect(setup.tcp.sink.frames == [InputFrame([InputEvent(.relX, 4)])], "\(setup.tcp.sink.frames)")
        // Announced before: not awaited again (a drag's last packets after its dragEnd was handled).
        let again = ContinuousClock.now
        movement.send(UDPPacket(buttons: .right, dx: 2, dy: 0).encoded(), to: "127.0.0.1", port: setup.udpPort)
        #expect(await eventually { Self.relX(setup.tcp.sink) == 6 }, "\(setup.tcp.sink.frames)")
        #expect(ContinuousClock.now - again < .seconds(1), "waited again")
        withExtendedLifetime(phone) {}  // its session, which binds the movement socket, lasts the whole test
        await setup.tcp.host.stop()
    }

    @Test("an unpaired phone cannot bind, and its packets inject nothing; a 0xBB control packet is refused even when bound")
    func unpairedAndControl() async throws {
        let setup = try await Self.setUp()
        let phone = try LoopbackPhone(port: setup.tcp.port)
        let movement = try UDPSocket.bind(port: 0, netns: nil)
        phone.send(#"{"type":"bindUDP","timestamp":1,"port":\#(movement.localPort ?? 0)}"#)
        let (refused, _) = try await phone.read(until: TCPEndpointTests.isError)
        guard case .error(let error) = refused.last else { throw TestFailure("\(refused)") }
        #expect(error.code == "notPaired")
        Self.move(movement, to: setup.udpPort, dx: [5])
        #expect(await Self.refused(1, from: movement, setup))
        #expect(setup.tcp.sink.frames.isEmpty)
        try await TCPEndpointTests.pair(phone, setup.tcp)
        phone.send(#"{"type":"bindUDP","timestamp":3,"port":\#(movement.localPort ?? 0)}"#)
        _ = try await phone.read(until: Self.isBound)
        movement.send([0xBB, 0x01, 0, 0, 0], to: "127.0.0.1", port: setup.udpPort)
        // A movement packet after it, from the same socket, is handled after it: once that one is in, so is the verdict.
        Self.move(movement, to: setup.udpPort, dx: [1])
        #expect(await eventually { !setup.tcp.sink.frames.isEmpty })
        #expect(setup.tcp.sink.frames == [InputFrame([InputEvent(.relX, 1)])], "a control packet over UDP injected \(setup.tcp.sink.frames)")
        await setup.tcp.host.stop()
    }

    @Test("a phone that connects again replaces its old session: what the old one held is released before the new one's commands")
    func reconnectReplaces() async throws {
        let setup = try await Self.setUp()
        let first = try LoopbackPhone(port: setup.tcp.port)
        try await TCPEndpointTests.pair(first, setup.tcp)
        first.send(#"[{"type":"dragStart","timestamp":3},{"type":"ping","timestamp":4}]"#)
        _ = try await first.read(until: TCPEndpointTests.isPong)
        #expect(setup.tcp.sink.frames == [InputFrame([.press(.btnLeft)])])
        let second = try LoopbackPhone(port: setup.tcp.port)
        second.send(#"[{"type":"dragStart","timestamp":5},{"type":"ping","timestamp":6}]"#)
        _ = try await second.read(until: TCPEndpointTests.isPong)
        #expect(setup.tcp.sink.frames == [InputFrame([.press(.btnLeft)]), InputFrame([.release(.btnLeft)]), InputFrame([.press(.btnLeft)])])
        // The old connection's end, later, releases nothing of the new one's.
        try await Task.sleep(for: .milliseconds(300))
        #expect(setup.tcp.sink.frames.count == 3, "\(setup.tcp.sink.frames)")
        await setup.tcp.host.stop()
    }
}
