import Radio
import Synchronization

/// A clock that moves only when the virtual ports move it: to the next input, or to the deadline the loop waits for.
final class VirtualRadioClock: RadioClock {
    private let current: Mutex<RadioInstant>

    init(_ start: RadioInstant) {
        current = Mutex(start)
    }

    func now() -> RadioInstant { current.withLock { $0 } }

    /// Moves on to `time`; never back.
    func move(to time: RadioInstant) {
        current.withLock { $0 = max($0, time) }
    }
}

/// The kernel and btvirt played on a virtual clock: each side's packets come at given times, and every packet the
/// bridge writes is stamped with the virtual time it was written at. A wait ends as ppoll's would: at the next input
/// or at the loop's deadline, whichever is first (an input at the deadline is read, as poll reports it); past `end`,
/// or with nothing left to come and no deadline, the bridge is told to stop.
struct ScriptedPorts: RadioPorts {
    struct Input {
        var at: RadioInstant
        var side: RadioSide
        var packet: H4Packet
    }

    struct Written: Hashable, CustomStringConvertible {
        var at: RadioInstant
        var side: RadioSide
        var packet: H4Packet
        var description: String { "\(packet) to \(side) at \(at)" }
    }

    let clock: VirtualRadioClock
    let end: RadioInstant
    /// While the host is gone, /dev/vhci refuses what is written to it (ENXIO), as the kernel does for a controller
    /// that is down.
    let hostGone: Range<RadioInstant>?
    private var inputs: [Input]
    private(set) var written: [Written] = []
    /// What the host refused, with when.
    private(set) var refused: [Written] = []

    init(_ inputs: [Input], until end: RadioInstant, clock: VirtualRadioClock, hostGone: Range<RadioInstant>? = nil) {
        precondition(zip(inputs, inputs.dropFirst()).allSatisfy { $0.at <= $1.at }, "inputs come in time order")
        self.inputs = inputs
        self.end = end
        self.clock = clock
        self.hostGone = hostGone
    }

    mutating func wait(until deadline: RadioInstant?) -> RadioWake {
        let next = inputs.first?.at
        guard let wake = [next, deadline].compactMap({ $0 }).min(), wake <= end else {
            clock.move(to: end)
            return .stop
        }
        clock.move(to: wake)
        if let next, next <= clock.now() { return .readable([inputs[0].side]) }
        return .deadline
    }

    mutating func read(_ side: RadioSide) -> [UInt8] {
        precondition(inputs.first?.side == side, "the loop reads only a side the wait said was readable")
        return inputs.removeFirst().packet.bytes
    }

    mutating func write(_ packet: H4Packet, to side: RadioSide) throws(RadioError) {
        if side == .host, let hostGone, hostGone.contains(clock.now()) {
            refused.append(Written(at: clock.now(), side: side, packet: packet))
            throw RadioError(.hostGone, "/dev/vhci (virtual) refused \(packet): ENXIO")
        }
        written.append(Written(at: clock.now(), side: side, packet: packet))
    }

    func name(of side: RadioSide) -> String { side == .host ? "/dev/vhci (virtual)" : "btvirt's socket (virtual)" }
}

/// The bridge's own loop (`RadioBridge.run(_:over:clock:log:)`) over scripted ports, from 0 ms to `end`.
struct VirtualBridgeRun {
    var written: [ScriptedPorts.Written]
    var refused: [ScriptedPorts.Written]
    var notes: [String]
    var core: RadioBridgeCore

    /// - Parameter hostGone: from when to when (ms) the host refuses what is written to it.
    init(_ model: RadioModel, _ inputs: [ScriptedPorts.Input], until end: Double, hostGone: Range<Double>? = nil) throws {
        let clock = VirtualRadioClock(at(0))
        var ports = ScriptedPorts(inputs, until: at(end), clock: clock,
                                  hostGone: hostGone.map { at($0.lowerBound)..<at($0.upperBound) })
        var notes: [String] = []
        core = try RadioBridge.run(model, over: &ports, clock: clock, log: { _, text in notes.append(text) })
        written = ports.written
        refused = ports.refused
        self.notes = notes
    }

    /// What reached btvirt: (marker or first byte, ms), in the order written.
    var toController: [Stamped] { stamped(.controller) }
    /// What reached the kernel.
    var toHost: [Stamped] { stamped(.host) }

    private func stamped(_ side: RadioSide) -> [Stamped] {
        written.filter { $0.side == side }.map { Stamped($0.packet, at: $0.at) }
    }
}

/// A packet as a test names it (an ACL packet by its marker, anything else by its bytes) and when it went, in ms.
struct Stamped: Hashable, CustomStringConvertible {
    var packet: String
    var ms: Double

    init(_ packet: H4Packet, at time: RadioInstant) {
        self.packet = packet.kind == .acl ? "#\(packet.bytes.last!)" : "\(packet)"
        ms = Double(at(0).distance(to: time)) / 1e6
    }

    init(_ name: String, _ ms: Double) {
        packet = name
        self.ms = ms
    }

    var description: String { "\(packet)@\(ms)" }
}

extension ScriptedPorts.Input {
    /// The kernel writes `packet` at `ms`.
    static func host(_ ms: Double, _ packet: H4Packet) -> Self { Self(at: RadioTests.at(ms), side: .host, packet: packet) }
    /// btvirt sends `packet` at `ms`.
    static func controller(_ ms: Double, _ packet: H4Packet) -> Self { Self(at: RadioTests.at(ms), side: .controller, packet: packet) }
    /// ACL data of link 0x0040 from the kernel at `ms`, with `marker`.
    static func acl(_ ms: Double, _ marker: UInt8) -> Self { host(ms, Events.acl(handle: 0x40, marker: marker)) }
}
