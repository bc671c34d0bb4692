import Foundation
import InputCodes
import Peripheral
import RemoteTouchProtocol
import Records
import Synchronization
import Testing

/// An endpoint for tests: sessions are names, status deliveries are recorded.
final class FakeEndpoint: CommandEndpoint {
    let name: String
    private let delivered = Mutex<[StatusData]>([])
    private let started = Mutex(false)

    /// `name` is a transport's (`ble`, `tcp`, `udp`): the host's ready file waits for the transports it was given.
    init(name: String = "ble") {
        self.name = name
    }

    var statuses: [StatusData] { delivered.withLock { $0 } }
    var isStarted: Bool { started.withLock { $0 } }

    func start(_ host: ComputerHost) async throws(PeripheralError) {
        started.withLock { $0 = true }
        host.ready(name)
    }

    func deliver(status: [UInt8]) {
        if let data = try? StatusData.decode(status) { delivered.withLock { $0.append(data) } }
    }

    func stop() async {
        started.withLock { $0 = false }
    }
}

@Suite("The computer's host, shared by every endpoint: pairing, the command path, session ends, status, ready file")
struct ComputerHostTests {
    struct Setup {
        var host: ComputerHost
        var endpoint: FakeEndpoint
        var sink: RecordingSink
        var codes: ShownCodes
        var folder: String
    }

    /// A host on a recording sink, with no endpoint yet: in-memory pairing (its codes recorded), status only when
    /// asked, a ready file in a fresh folder.
    static func host(devnode: String?, endpoints: [PeripheralConfiguration.Endpoint] = [.ble])
        throws -> (host: ComputerHost, sink: RecordingSink, codes: ShownCodes, folder: String)
    {
        let folder = NSTemporaryDirectory() + "hil-host-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var configuration = PeripheralConfiguration(stateDirectory: folder)
        configuration.endpoints = endpoints
        configuration.readyFile = folder + "/ready"
        configuration.statusInterval = .seconds(3600)
        let codes = ShownCodes()
        let pairing = try PairingAuthority(stateFile: nil, onCodeShown: codes.record)
        let sink = RecordingSink()
        let log = PeripheralLog(path: nil, echo: false)
        let processor = CommandProcessor(sink: sink, pairing: pairing, log: log)
        let host = ComputerHost(configuration: configuration, log: log, pairing: pairing, processor: processor, devnode: devnode)
        return (host, sink, codes, folder)
    }

    static func setUp() async throws -> Setup {
        let (host, sink, codes, folder) = try host(devnode: "/dev/input/event9")
        let endpoint = FakeEndpoint()
        try await host.start(endpoint)
        return Setup(host: host, endpoint: endpoint, sink: sink, codes: codes, folder: folder)
    }

    @Test("an unpaired session is refused with an error status and injects nothing; after pairing its commands inject")
    func pairing() async throws {
        let setup = try await Self.setUp()
        let tap = Array(#"{"tap":{"type":"single"}}"#.utf8)
        guard case .refused(let error) = setup.host.command(tap, from: "phone-1") else { throw TestFailure("injected unpaired") }
        #expect(error.code == "notPaired")
        #expect(setup.sink.frames.isEmpty)
        #expect(setup.endpoint.statuses.last?.error?.code == "notPaired")
        _ = setup.host.pairingRead(by: "phone-1")
        let code = try #require(setup.codes.last)
        let wrong = String(code.dropLast()) + String((Int(String(code.last!))! + 1) % 10)
        #expect(try setup.host.pairingWrite(Array(wrong.utf8), by: "phone-1")?.code == "wrongCode")
        #expect(setup.endpoint.statuses.last?.error?.code == "wrongCode")
        #expect(try setup.host.pairingWrite(Array(code.utf8), by: "phone-1") == nil)
        guard case .injected = setup.host.command(tap, from: "phone-1") else { throw TestFailure("refused after pairing") }
        #expect(setup.sink.frames == [InputFrame([InputEvent(.btnLeft, 1)]), InputFrame([InputEvent(.btnLeft, 0)])])
        // Another session is not paired by this one's code.
        guard case .refused = setup.host.command(tap, from: "phone-2") else { throw TestFailure("phone-2 injected") }
        await setup.host.stop()
    }

    @Test("a session that ends lets go of the button it held")
    func sessionEnd() async throws {
        let setup = try await Self.setUp()
        _ = setup.host.pairingRead(by: "phone-1")
        _ = try setup.host.pairingWrite(Array(try #require(setup.codes.last).utf8), by: "phone-1")
        _ = setup.host.command(Array(#"{"dragStart":{}}"#.utf8), from: "phone-1")
        #expect(setup.sink.frames.last == InputFrame([InputEvent(.btnLeft, 1)]))
        setup.host.sessionEnded("phone-1", reason: "the link went down")
        #expect(setup.sink.frames.last == InputFrame([InputEvent(.btnLeft, 0)]))
        await setup.host.stop()
    }

    @Test("the ready file appears once every transport serves, names them and the device; registrations counts its writes; a clean stop removes it")
    func ready() async throws {
        let (host, _, _, folder) = try Self.host(devnode: "/dev/input/event9", endpoints: [.ble, .tcp, .udp])
        let file = folder + "/ready"
        let ble = FakeEndpoint(name: "ble")
        try await host.start(ble)
        try await host.start(FakeEndpoint(name: "tcp"))
        #expect(try ReadyRecord.read(from: file) == nil, "written while udp was still starting")
        try await host.start(FakeEndpoint(name: "udp"))
        let first = try #require(try ReadyRecord.read(from: file))
        #expect(first.endpoints == ["ble", "tcp", "udp"])
        #expect(first.uinputDevice == "/dev/input/event9")
        #expect(first.registrations == 1)
        #expect(first.pid == Int(getpid()))
        // The ble endpoint registered again (bluetoothd restarted).
        host.ready("ble")
        #expect(try ReadyRecord.read(from: file)?.registrations == 2)
        await host.stop()
        #expect(try ReadyRecord.read(from: file) == nil)
        #expect(!ble.isStarted)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
