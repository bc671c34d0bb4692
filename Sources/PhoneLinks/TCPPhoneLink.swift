package import Avahi
package import DBus
import Foundation
package import GestureScript
package import InputCodes
import NetSocket
package import RemoteTouchProtocol
package import RigControl
package import ScenarioDriver
package import Synchronization
package import Verifier

/// The virtual iPad's network link (seeds/ipad-trackpad-design.md): finds the computer over Bonjour through the
/// phone host's avahi-daemon (`_claude-controller._tcp`), connects over TCP from the phone's network namespace,
/// pairs with the 6-digit code, sends the gesture model's commands as timestamped messages batched at 120 Hz, and
/// pings as its heartbeat. Link faults are done to the real network: a reset connection, an interface down.
package final class TCPPhoneLink: PhoneLink, NetworkFaults {
    package struct Settings: Sendable {
        /// The phone host: its network namespace and its avahi-daemon's bus.
        package var phoneNetns: String?
        package var phoneBus: DBusConnection.Bus
        /// The computer host's namespace (for a computer-side outage).
        package var computerNetns: String?
        /// Only this Bonjour instance name (nil: the first `_claude-controller._tcp` found).
        package var serviceName: String?
        package var latencyScale: Double
        /// The udp transport: the computer's address (the seed's phone is given it, no Bonjour), its control and
        /// movement ports; movement goes as UDP packets, the rest over the control connection. nil: tcp.
        package var udp: UDPTarget?
        /// The rig's third host, for forged packets (`forgedPackets` steps).
        package var attacker: NetworkHosts.Attacker?
        /// The computer host's address (another phone's session connects to it: `otherPhone` steps).
        package var computerAddress: String

        package struct UDPTarget: Sendable {
            package var address: String
            package var controlPort: UInt16 = MovementService.controlPort
            package var udpPort: UInt16 = MovementService.udpPort
        }

        /// The phone on the rig's phone host, able to take either host's network down; with `udp`, the udp
        /// transport's phone, given the computer host's address.
        package init(_ hosts: NetworkHosts, latencyScale: Double, udp: Bool = false) {
            phoneNetns = hosts.phoneNetns
            phoneBus = .address(hosts.phoneBus)
            computerNetns = hosts.computerNetns
            computerAddress = hosts.computerAddress
            self.latencyScale = latencyScale
            if udp { self.udp = UDPTarget(address: hosts.computerAddress) }
            attacker = hosts.attacker
        }
    }

    package let settings: Settings
    private let avahi: DBusConnection
    package let phase: @Sendable (String) -> Void
    package let state = Mutex<(connection: TCPPhoneConnection?, computer: AvahiService?, statuses: [StatusObservation], lastPairing: PairingStatus?)>(
        (nil, nil, [], nil))
    /// The udp transport's movement socket (in the phone's namespace) and report state.
    package let movement: UDPMovementSender?
    /// The netem conditions a `network` step set, restored after a partition and removed at the end.
    package let networkConditions = Mutex<NetworkConditions?>(nil)

    package init(settings: Settings, phase: @escaping @Sendable (String) -> Void) async throws {
        self.settings = settings
        self.phase = phase
        movement = try settings.udp.map { try UDPMovementSender(target: $0, netns: settings.phoneNetns) }
        do {
            avahi = try await DBusConnection.connect(settings.phoneBus)
        } catch {
            throw LinkError(.hosts, "the phone cannot reach its avahi-daemon on \(settings.phoneBus): \(error); `hil doctor` checks the rig's two hosts", cause: error)
        }
    }

    deinit {
        state.withLock { $0.connection?.close(reason: "the phone app ended") }
        avahi.close()
    }

    package var connection: TCPPhoneConnection? { state.withLock { $0.connection } }

    package func connected() throws -> TCPPhoneConnection {
        guard let connection = state.withLock({ $0.connection }), connection.down == nil else {
            throw LinkError(.link, "the phone is not connected to the computer" + (state.withLock { $0.connection?.down }.map { ": \($0)" } ?? ""))
        }
        return connection
    }

    // MARK: Discovery and connection

    /// Browses for the computer, resolves it, connects.
    package func connect() async throws -> String {
        let found = try await locate(timeout: .seconds(Int64(10 * settings.latencyScale)))
        try await open(found, timeout: .seconds(Int64(5 * settings.latencyScale)))
        return "\(found.address):\(found.port)"
    }

    /// Where the computer is: found over Bonjour (tcp), or the address the udp phone was given.
    private func locate(timeout: Duration) async throws -> AvahiService {
        guard let udp = settings.udp else { return try await discover(timeout: timeout) }
        let computer = AvahiService(name: "udp", type: "", domain: "", host: udp.address, address: udp.address, port: udp.controlPort, txt: [])
        state.withLock { $0.computer = computer }
        return computer
    }

    private func discover(timeout: Duration) async throws -> AvahiService {
        let wanted = settings.serviceName
        let found = try await AvahiBrowser.find(NetworkService.type, on: avahi, timeout: timeout) { service in
            wanted == nil || service.name == wanted
        }
        phase("computer found over Bonjour")
        state.withLock { $0.computer = found }
        return found
    }

    /// Connects on a thread of its own: a try can block for its whole timeout (a computer host that is down), which
    /// must not hold one of the few threads the driver's tasks run on.
    private func open(_ computer: AvahiService, timeout: Duration) async throws {
        let netns = settings.phoneNetns
        let result: Result<TCPSocket, NetSocketError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Result { () throws(NetSocketError) in
                    try TCPSocket.connect(to: computer.address, port: computer.port, netns: netns, timeout: timeout)
                })
            }
            thread.name = "tcp-connect"
            thread.start()
        }
        let socket = try result.get()
        // Data unacknowledged for 2 s aborts the connection: the phone notices a partitioned network (where nothing
        // answers and nothing is reset) from its own sends, as the computer's keep-alive does from its side.
        socket.setUserTimeout(TCPPhoneConnection.userTimeout)
        let connection = TCPPhoneConnection(
            socket: socket, pingInterval: .milliseconds(500), deadAfter: .milliseconds(Int64(2000 * settings.latencyScale))
        ) { [weak self] status in
            self?.state.withLock { $0.statuses.append(status) }
        }
        connection.start()
        state.withLock { state in
            state.connection?.close(reason: "replaced by a new connection")
            state.connection = connection
        }
        await bindMovement(connection)
    }

    // MARK: Commands and pairing

    package func sendMalformed(_ bytes: [UInt8]) async throws -> [String] {
        try connected().sendRaw(bytes)
        return [String(decoding: bytes, as: UTF8.self)]
    }

    package func send(_ command: Command, confirmed: Bool) async throws -> [String] {
        let connection = try connected()
        // Movement leaves at once over UDP: what the phone sent over control before it goes first.
        if movement != nil, PointerTranslator.isMovement(command), connection.hasPending { try connection.flushPending() }
        if let packets = movement?.send(command) {
            return packets.map { PointerPayload.text($0.encoded(), format: .udp) }
        }
        try await connection.enqueue(.command(command))
        // The computer decodes the message back into this command and records its encoding.
        return [String(decoding: command.encoded(), as: UTF8.self)]
    }

    /// A `send` step's item as it is: a command as a message (never turned into udp packets), a packet from the
    /// phone's bound movement socket (udp only); a hid report has no way over the network.
    package func sendRecorded(_ payload: SendPayload, confirmed: Bool) async throws -> [String] {
        let connection = try connected()
        switch payload {
        case .command(let command):
            movement?.carried(command)
            try await connection.enqueue(.command(command))
        case .packet(let packet):
            guard let movement else {
                throw LinkError(.wrongTransport, "a send step's packet items go to the udp transport's movement port; this run is tcp (the scenario's run.transports should say [\"udp\"])")
            }
            movement.send(raw: packet)
        case .report:
            throw LinkError(.wrongTransport, "a send step's report items go to the hid transport's report characteristic; this run is \(movement == nil ? "tcp" : "udp")")
        }
        return [payload.description]
    }

    package func holdFrames() {
        state.withLock { $0.connection }?.hold()
    }

    package func releaseFrames() throws {
        try state.withLock { $0.connection }?.release()
    }

    package func openFastPath() async throws {}
    package func closeFastPath() {}

    package func requestPairing() async throws {
        let (status, refusals) = try await connected().pairing(.pairingRequest, timeout: replyTimeout)
        guard let status else { throw LinkError(.pairing, "the computer did not answer the pairing request\(refusals.last.map { ": \($0.message)" } ?? "")") }
        state.withLock { $0.lastPairing = status }
    }

    package func enterCode(_ digits: String) async throws -> PairingObservation {
        let (status, refusals) = try await connected().pairing(.pair(code: digits), timeout: replyTimeout)
        guard let shown = status ?? state.withLock({ $0.lastPairing }) else {
            throw LinkError(.pairing, "the computer sent no pairing state after the code\(refusals.last.map { ": \($0.message)" } ?? "")")
        }
        state.withLock { $0.lastPairing = shown }
        if shown.state == .paired, let connection = state.withLock({ $0.connection }) { await bindMovement(connection) }
        // A refused code is answered with its refusal, then the pairing state; a code that did not decode with an
        // error alone.
        let pairingCodes = [StatusError.Code.wrongCode, .lockedOut, .codeExpired, .noCode].map(\.rawValue)
        let refused = refusals.last { pairingCodes.contains($0.code) } ?? (status == nil ? refusals.last : nil)
        return PairingObservation(refusal: refused.map { "\($0.code): \($0.message)" }, status: shown)
    }

    private var replyTimeout: Duration { .milliseconds(Int64(3000 * settings.latencyScale)) }

    // MARK: Status

    package func watchStatus() async {}

    package func statuses(from start: MonotonicTime, to end: MonotonicTime) -> [StatusObservation] {
        state.withLock { $0.statuses.filter { $0.at >= start && $0.at <= end } }
    }

    package var statusCount: Int { state.withLock { $0.statuses.count } }

    // MARK: The link going and coming back

    package func reconnect(timeout: Duration) async -> String? {
        guard let computer = state.withLock({ $0.computer }) else { return "the phone knows no computer" }
        do {
            try await open(computer, timeout: timeout)
            return nil
        } catch {
            return "\(error)"
        }
    }

    package func disconnect() async throws {
        try connected().close(reason: "the user disconnected")
    }

    package func forgetComputer() async throws {
        state.withLock { state in
            state.connection?.close(reason: "the computer's app is stopping")
            state.computer = nil
        }
    }

    package func connectAgain(timeout: Duration) async -> String? {
        do {
            try await open(try await locate(timeout: timeout), timeout: timeout)
            return nil
        } catch {
            return "\(error)"
        }
    }

    package func restartStack(_ computer: any ComputerUnderTest, release: ReleaseCheck) async throws -> LinkObservation {
        throw LinkError(.wrongTransport, "restartBluetoothd restarts the BLE stack: it does not apply to the tcp transport (mark the scenario \"transports\": [\"ble\"])")
    }
}

extension TCPPhoneLink {
    /// The iPad design's rule: exponential backoff, 2^attempt × the unit (1 s), at most 5 tries.
    package var reconnectRule: ReconnectPolicy.Rule { .exponentialBackoff }
}

extension TCPPhoneLink {
    /// The end of a scenario: the computer stops while the phone app leaves it.
    package func tearDown(erred: Bool, phase: (String) -> Void, stopComputer: @escaping @Sendable () async -> Void) async
        -> LinkTeardown
    {
        async let computerStopped: Void = stopComputer()
        close()
        await computerStopped
        return LinkTeardown()
    }

    /// The phone app leaves the computer at the end of a scenario: its connection closes (FIN).
    package func close() {
        state.withLock { $0.connection?.close(reason: "the scenario ended") }
        movement?.socket.close()
        resetNetwork()
    }
}
