import Avahi
import DBus
import Foundation
import NetSocket
import RemoteTouchProtocol
import Synchronization

/// The TCP endpoint of the iPad design's network path: a listener on port 51423 published over Bonjour as
/// `_claude-controller._tcp` through avahi-daemon's D-Bus API, length-prefixed JSON frames (`NetworkFrame`,
/// `PhoneMessage`), one `TCPSession` per connection. Everything after decoding — paired?, map, inject, pairing,
/// lockout, status — is the `ComputerHost`'s, as for BLE.
package final class TCPEndpoint: CommandEndpoint {
    package var name: String { settings.name }
    let settings: TCPSettings
    let log: PeripheralLog
    private let state = Mutex<(listener: TCPSocket?, sessions: [TCPSession], publisher: AvahiPublisher?, bus: DBusConnection?,
                               movement: UDPMovement?)>((nil, [], nil, nil, nil))

    /// The port it listens on, once started (the kernel's choice when `settings.port` is 0).
    package var port: UInt16? { state.withLock { $0.listener?.localPort } }
    /// The UDP movement port, once started (udp).
    package var udpPort: UInt16? { state.withLock { $0.movement?.port } }
    /// The UDP movement channel, once started (udp), for what it has bound and refused.
    var movement: UDPMovement? { state.withLock { $0.movement } }

    package init(settings: TCPSettings, log: PeripheralLog) {
        self.settings = settings
        self.log = log
    }

    package func start(_ host: ComputerHost) async throws(PeripheralError) {
        let listener: TCPSocket
        do {
            listener = try TCPSocket.listen(port: settings.port, netns: settings.netns)
        } catch {
            throw PeripheralError(.network, error.what, hint: error.hint)
        }
        state.withLock { $0.listener = listener }
        if let udpPort = settings.udpPort {
            let movement: UDPMovement
            do {
                movement = try UDPMovement(port: udpPort, netns: settings.netns, log: log, pressWait: settings.pressWait)
            } catch {
                listener.close()
                throw PeripheralError(.network, error.what, hint: error.hint)
            }
            state.withLock { $0.movement = movement }
            movement.start(host)
            log.info("taking UDP movement packets on port \(movement.port ?? udpPort)")
        }
        let thread = Thread { [self] in acceptLoop(listener, host: host) }
        thread.name = "tcp-accept"
        thread.start()
        let port = listener.localPort ?? settings.port
        log.info("listening on TCP port \(port)" + (settings.netns.map { " in network namespace \($0)" } ?? ""))
        if let bus = settings.avahiBus { try await publish(on: bus, port: port) }
        host.ready(name)
    }

    private func publish(on bus: DBusConnection.Bus, port: UInt16) async throws(PeripheralError) {
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(bus)
        } catch {
            throw PeripheralError(.bonjour, "cannot connect to avahi-daemon's bus \(bus): \(error)",
                                  hint: "is avahi-daemon running? (bash Rigs/setup.sh installs it; `hil doctor` checks the rig's hosts)")
        }
        let service = AvahiPublisher.Service(
            name: settings.serviceName ?? TCPSettings.defaultServiceName(hostName: ProcessInfo.processInfo.hostName),
            type: TCPSettings.serviceType, port: port,
            txt: ["protocol=\(TCPSettings.protocolVersion)", "rate=120", "framing=u32be-json", "pairing=code6"])
        let publisher = AvahiPublisher(connection: connection, service: service) { [log] in log.info($0) }
        do {
            try await publisher.start()
        } catch {
            throw PeripheralError(.bonjour, "cannot publish \(TCPSettings.serviceType) over Bonjour: \(error.what)", hint: error.hint)
        }
        state.withLock {
            $0.publisher = publisher
            $0.bus = connection
        }
        log.info("published \"\(publisher.publishedName)\" \(TCPSettings.serviceType) port \(port) through avahi-daemon")
    }

    private func acceptLoop(_ listener: TCPSocket, host: ComputerHost) {
        while let (socket, peer, port) = listener.accept() {
            socket.setKeepAlive(idle: 2, interval: 1, count: 3)
            let movement = state.withLock { $0.movement }
            let session = TCPSession(socket: socket, transport: name, peer: peer, port: port, host: host, log: log,
                                     stallTimeout: settings.stallTimeout, movement: movement)
            // One phone, one session: a phone that connects again (its link went and it noticed first) replaces
            // its old connection, whose held keys and buttons are released now rather than at its stall deadline.
            let replaced = state.withLock { state in
                defer { state.sessions.append(session) }
                return state.sessions.filter { $0.id == session.id }
            }
            for old in replaced { old.replace(reason: "the phone connected again from port \(port)") }
            log.info("phone \(session.id) connected from port \(port)")
            session.start { [self] in
                state.withLock { $0.sessions.removeAll { $0 === session } }
            }
        }
    }

    /// Sends a status to every connected session (never blocking: a full socket drops it).
    package func deliver(status bytes: [UInt8]) {
        guard let status = try? StatusData.decode(bytes) else { return }
        let frame = ComputerMessage.status(status).frame()
        for session in state.withLock({ $0.sessions }) { session.sendNow(frame) }
    }

    /// Withdraws the Bonjour service, stops listening, closes every session.
    package func stop() async {
        let (listener, sessions, publisher, bus, movement) = state.withLock { state in
            defer { state = (nil, [], nil, nil, nil) }
            return state
        }
        movement?.stop()
        await publisher?.stop()
        bus?.close()
        listener?.close()
        for session in sessions { session.close(reason: "the computer is stopping") }
    }
}
