package import PhoneLinks
import Foundation
import InputCodes
package import RemoteTouchProtocol
package import ScenarioDriver
import ComputerProcess
import RunContext
import Processes
package import System

/// Who sends a `hil bench` stream, and how: hil's own client over D-Bus (`dbus`) or the AcquireWrite socket
/// (`fd`), hid reports, the network transports (`tcp`, `udp`), or a reference client, a plain Python program,
/// doing the same (`python-dbus`, `python-fd`, `python-tcp`, `python-udp`: `ReferenceClient`). Every sender records
/// each command's send time and payload, which the peripheral's receipts are matched to.
package struct BenchSender: Sendable {
    package enum Client: Sendable {
        case dbus
        /// The command characteristic's acquired socket.
        case socket(FileDescriptor)
        /// A reference client, and the folder its output and send times go to.
        case reference(ReferenceClient, folder: String)
        /// A network transport (tcp, or udp with its control connection), paired, from the phone host.
        case tcp(TCPPhoneLink)
        /// The hid transport: reports on the report characteristic's acquired socket.
        case reports(FileDescriptor)
    }

    package let path: String
    package let client: Client

    /// hil's own client over BLE: its packets wait for the radio's connection events, so its sends are dithered
    /// (`BenchRunner.Settings.dither`). The reference clients pace themselves; tcp and udp meet no periodic radio.
    package var meetsRadio: Bool {
        switch client {
        case .dbus, .socket, .reports: true
        case .reference, .tcp: false
        }
    }
    /// The paired BLE phone: `dbus` sends through it; `fd`, `hid` and the reference clients write its characteristics.
    package let phone: BLEPhoneLink

    /// - Throws: `BenchError` for an unknown path or a reference path without the client, or the central's
    ///   error when the socket cannot be acquired.
    static func open(_ path: String, settings: BenchRunner.Settings, session: PairedSession, folder: String,
                     context: RunContext) async throws -> BenchSender
    {
        let (phone, computer) = (session.phone, session.computer)
        let (bluez, link) = (phone.central, try phone.connected())
        switch path {
        case "tcp", "udp":
            return BenchSender(path: path, client: .tcp(try await pairedTCP(context, computer, udp: path == "udp")), phone: phone)
        case "hid":
            guard let report = link.report else { throw BenchError(.computer, "hid: the computer has no report characteristic (\(RemoteTouchService.reportUUID))") }
            // As the phone does on each connection: a neutral report, then a read, so the computer's side is
            // acquired before the stream (BLEPhoneLink.openFastPath).
            try await bluez.write(report, HIDReport(dx: 0, dy: 0).encoded(), withResponse: false)
            _ = try await bluez.read(report)
            return BenchSender(path: path, client: .reports(FileDescriptor(owning: try await bluez.acquireWrite(report).fd)), phone: phone)
        case "dbus":
            return BenchSender(path: path, client: .dbus, phone: phone)
        case "fd":
            return BenchSender(path: path, client: .socket(FileDescriptor(owning: try await bluez.acquireWrite(link.command).fd)), phone: phone)
        case "python-dbus", "python-fd":
            let script = try referenceScript(settings.referenceClient, path: path, option: "--reference-client", file: "bench_client.py")
            let client = ReferenceClient.ble(script: script, writePath: String(path.dropFirst("python-".count)), characteristic: link.command)
            return BenchSender(path: path, client: .reference(client, folder: folder), phone: phone)
        case "python-tcp", "python-udp":
            let script = try referenceScript(settings.referenceNetworkClient, path: path, option: "--reference-network-client",
                                             file: "net_bench_client.py")
            guard let ip = ChildProcess.resolve("ip") else {
                throw BenchError(.missingTool, "\(path): ip (Debian's iproute2) is not installed, and the reference client runs in the phone's network namespace through `ip netns exec`: run `bash Rigs/setup.sh`")
            }
            let client = ReferenceClient.network(script: script, transport: String(path.dropFirst("python-".count)),
                                                 hosts: try context.networkHosts(for: "the \(path) path"), codeFile: computer.current.codeFile, ip: ip)
            return BenchSender(path: path, client: .reference(client, folder: folder), phone: phone)
        default:
            throw BenchError(.usage, "unknown bench path \(path): dbus, fd, python-dbus, python-fd, hid, tcp, udp, python-tcp or python-udp")
        }
    }

    /// The reference client's script, when it is there.
    private static func referenceScript(_ script: String?, path: String, option: String, file: String) throws -> String {
        guard let script, FileManager.default.isReadableFile(atPath: script) else {
            throw BenchError(.missingTool, "\(path): the reference client \(script ?? "(none)") is not there; pass \(option) or run from the project folder (Rigs/reference/\(file))")
        }
        return script
    }

    /// The virtual iPad, found over Bonjour, connected and paired with the code the computer shows, in basic mouse mode.
    private static func pairedTCP(_ context: RunContext, _ computer: PeripheralComputer, udp: Bool) async throws -> TCPPhoneLink {
        let phone = try await TCPPhoneLink(
            settings: .init(try context.networkHosts(for: "the tcp path"), latencyScale: context.latencyScale, udp: udp), phase: { _ in })
        do {
            try await PairedSession.pair(phone, with: computer, what: "the \(udp ? "udp" : "tcp") session")
        } catch {
            phone.close()
            throw error
        }
        return phone
    }

    /// What the path measured besides the streams: for tcp, the heartbeat's ping round trips (the latency the
    /// iPad app shows).
    package var note: String? {
        guard case .tcp(let phone) = client, let trips = phone.connection?.roundTrips.sorted(), !trips.isEmpty else { return nil }
        return String(format: "%@: %d ping(s) answered, round trip p50 %.2f ms, max %.2f ms", path, trips.count, trips[trips.count / 2],
                      trips[trips.count - 1])
    }

    /// Where `send` writes commands: the network link (tcp, udp), else the BLE phone (dbus: a write without response).
    private var commandLink: any PhoneLink {
        if case .tcp(let network) = client { return network }
        return phone
    }

    package func close() {
        if case .socket(let socket) = client { socket.close() }
        if case .reports(let socket) = client { socket.close() }
        if case .tcp(let phone) = client { phone.close() }
    }

    /// Sends one stream, paced from its first command (dithered with that seed when `dither` is set: see
    /// `SendSchedule`); the rate achieved and how often the socket was full.
    package func send(rate: Double, count: Int, dither: UInt64? = nil, sends: inout [StageBreakdown.Send]) async throws
        -> (achievedHz: Double, blocked: Int)
    {
        if case .reference(let reference, let folder) = client {
            let outcome = try await reference.run(rate: rate, count: count, name: "\(folder)/\(path)-\(sends.count)")
            sends += outcome.sends
            return (outcome.achievedHz, outcome.blocked)
        }
        let schedule = SendSchedule(rate: rate, dither: dither)
        var blocked = 0
        for index in 0..<count {
            try await schedule.wait(for: index)
            let delta = Self.delta(index, path: path)
            let bytes = Command.cursorMove(delta: delta).encoded()
            let at = MonotonicTime.now()
            var wire = [String(decoding: bytes, as: UTF8.self)]
            if case .socket(let socket) = client {
                blocked += try AcquiredSocket.write(socket.rawValue, bytes, what: "cursor command \(index)")
            } else if case .reports(let socket) = client {
                let report = HIDReport(dx: Int(delta.x), dy: Int(delta.y)).encoded()
                blocked += try AcquiredSocket.write(socket.rawValue, report, what: "report \(index)")
                wire = [PointerPayload.text(report, format: .hid)]
            } else {
                wire = try await commandLink.send(.cursorMove(delta: delta), confirmed: false)
            }
            sends += wire.map { .init(at: at.nanoseconds, payload: $0) }
        }
        let span = schedule.elapsed
        return (span > 0 ? Double(count) / span : 0, blocked)
    }

    /// Command i's delta. It differs from its neighbours' so each receipt matches one send: `1 + i % 997` points
    /// right; on udp, whose packets carry int8 deltas, `1 + i % 127` right and `i / 127 % 127` down, so one command
    /// is one packet.
    package static func delta(_ index: Int, path: String) -> Point {
        path == "udp" ? Point(x: Double(1 + index % 127), y: Double(index / 127 % 127)) : Point(x: Double(1 + index % 997), y: 0)
    }
}
