import Foundation
import NetSocket
import RemoteTouchProtocol
import Synchronization

/// The udp transport's movement channel (seeds/connectivity-layer.md): 5-byte packets on a UDP port, each injected
/// only when it comes from the address and port a paired control session bound with `bindUDP` (its TCP peer's
/// address, the port it declared). Anything else — a forged packet from another host, a packet after its
/// session ended, a packet from a phone that never paired — injects nothing and is counted, in the receipts as
/// refused and per source in the log (the first few, then every 1000th, then a summary when serving stops).
///
/// What the binding protects against, and what not (docs/protocol.md, "The udp transport"): another host on
/// the network that sends from its own address cannot move the pointer, nor can a packet once its session has
/// ended. A host able to send with the phone's source address and port (on the same link, or on path) can
/// still inject movement and replay captured packets: a 5-byte packet has no room for a MAC or a counter.
/// Clicks, buttons and keys never travel over UDP, so such a host can move the pointer and scroll, not click.
final class UDPMovement: Sendable {
    let socket: UDPSocket
    private let log: PeripheralLog
    /// Source `address:port` → its binding.
    private let state = Mutex<(bindings: [String: Binding], refused: [String: Int])>(([:], [:]))

    private struct Binding: Sendable {
        var session: String
        var connection: String
        /// Tells the session its phone was heard from (movement keeps a control session from stalling).
        var heard: @Sendable () -> Void
        /// The buttons the source's last movement packet announced, and when it was done with: a press is awaited only
        /// when it is new, or when that packet was done with over `pressWait` ago (a new gesture, not a drag's
        /// trailing packets).
        var announced: MouseButtons = []
        var heardAt: ContinuousClock.Instant?
    }

    /// How long a movement packet waits for a press its buttons byte announces (`awaitPress`).
    let pressWait: Duration

    init(port: UInt16, netns: String?, log: PeripheralLog, pressWait: Duration) throws(NetSocketError) {
        socket = try UDPSocket.bind(port: port, netns: netns)
        self.log = log
        self.pressWait = pressWait
    }

    var port: UInt16? { socket.localPort }
    /// The sources bound now (`address:port`), and the packets refused per source so far.
    var bound: Set<String> { state.withLock { Set($0.bindings.keys) } }
    var refused: [String: Int] { state.withLock { $0.refused } }

    /// Reads packets on a thread of its own until `stop`.
    func start(_ host: ComputerHost) {
        let thread = Thread { [self] in
            while let datagram = socket.receive() { handle(datagram, host: host) }
        }
        thread.name = "udp-movement"
        thread.start()
    }

    /// Packets from `address:port` are `session`'s from now on, as long as `connection` lasts (a connection binds
    /// one source; binding again moves it). `heard` runs for each packet from it, injected or refused.
    func bind(address: String, port: UInt16, to session: String, connection: String,
              heard: @escaping @Sendable () -> Void)
    {
        let source = "\(address):\(port)"
        state.withLock { state in
            state.bindings = state.bindings.filter { $0.value.connection != connection }
            state.bindings[source] = Binding(session: session, connection: connection, heard: heard)
        }
        log.info("UDP movement from \(source) bound to \(connection)")
    }

    /// `connection` ended: its source is bound no more.
    func unbind(_ connection: String) {
        let gone = state.withLock { state in
            let gone = state.bindings.filter { $0.value.connection == connection }.map(\.key)
            for source in gone { state.bindings[source] = nil }
            return gone
        }
        for source in gone { log.info("UDP movement from \(source) unbound: \(connection) ended") }
    }

    private func handle(_ datagram: UDPSocket.Datagram, host: ComputerHost) {
        let source = "\(datagram.address):\(datagram.port)"
        let announced = (try? UDPPacket.decode(datagram.bytes)).flatMap { $0.header == .movement ? $0.buttons : nil }
        // The binding, and what the source's packet before announced, in one look (this is every packet's path). A
        // packet done with over `pressWait` ago announced nothing still current: a phone that lifts after a drag and
        // long-presses again sends no packet in between, and its next drag's first packet, announcing the same button,
        // must wait for that drag's press as the first drag's did. (Done with, not arrived: packets queued behind one
        // that waited are a stream, not a new gesture.)
        let now = ContinuousClock.now
        let found = state.withLock { state -> (binding: Binding, before: MouseButtons)? in
            guard let binding = state.bindings[source] else { return nil }
            if let announced { state.bindings[source]?.announced = announced }
            let current = binding.heardAt.map { now - $0 <= pressWait } ?? false
            return (binding, current ? binding.announced : [])
        }
        guard let (binding, before) = found else {
            let count = state.withLock { state in
                state.refused[source, default: 0] += 1
                return state.refused[source]!
            }
            host.processor.refusedPointer(
                datagram.bytes, format: .udp, source: source, code: .unboundSource,
                message: "UDP packet \(count) from \(source), which no paired control session is bound to: injected nothing (forged, sent after its session ended, or from a phone that is not paired)",
                logged: count <= 3 || count % 1000 == 0)
            return
        }
        binding.heard()
        if let announced { awaitPress(announced.subtracting(before), host: host) }
        if case .refused(let error) = host.processor.handlePointer(datagram.bytes, from: binding.session, format: .udp) {
            host.publishStatus(error: error)
        }
        if announced != nil { state.withLock { $0.bindings[source]?.heardAt = .now } }
    }

    /// A movement packet whose buttons byte newly holds a button (the source's packet before, if done with within
    /// `pressWait`, did not) that the computer has not pressed yet — a drag's first packets — waits, up to
    /// `pressWait` (50 ms), for the control connection to press it: the phone sent the dragStart first, over TCP, but
    /// the session's thread may handle it after this thread handles the packet (under the vm rig's load, 5 ms after:
    /// the pointer moved before the button went down). A button announced by the packet just before is not awaited:
    /// the computer up while the packets still hold it is a dragEnd handled ahead of the drag's last packets. The
    /// buttons byte decides nothing else: a packet never presses or releases (docs/protocol.md), and a forged one can
    /// only wait.
    private func awaitPress(_ announced: MouseButtons, host: ComputerHost) {
        guard !announced.isEmpty, !announced.isSubset(of: host.processor.heldButtons) else { return }
        let deadline = ContinuousClock.now + pressWait
        while ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.000_2)
            if announced.isSubset(of: host.processor.heldButtons) { return }
        }
        log.warning("UDP movement announced buttons \(announced.rawValue) that no control message pressed within \(pressWait): injected without them")
    }

    /// Stops reading; logs how many packets each unbound source sent.
    func stop() {
        socket.close()
        let refused = state.withLock { $0.refused }
        for (source, count) in refused.sorted(by: { $0.key < $1.key }) {
            log.info("refused \(count) UDP packet(s) from \(source): no paired session was bound to it")
        }
    }
}
