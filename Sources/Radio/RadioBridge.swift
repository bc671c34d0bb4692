package import System

/// The bridge between the kernel's virtual HCI and btvirt's server socket: one thread, one poll over both files and a
/// stop pipe, woken for the next connection event by the poll's timeout (in nanoseconds). Runs until the stop pipe
/// becomes readable, or throws when a side fails or closes.
package struct RadioBridge: Sendable {
    /// One side of the bridge: its open file and the name errors give it ("/dev/vhci (hci0)").
    package struct Side: Sendable {
        package var file: FileDescriptor
        package var name: String

        package init(file: FileDescriptor, name: String) {
            self.file = file
            self.name = name
        }
    }

    package var host: Side
    package var controller: Side
    package var clock: any RadioClock
    /// Where notes go, with the time they were made at.
    package var log: @Sendable (RadioInstant, String) -> Void

    package init(host: Side, controller: Side, clock: any RadioClock = MonotonicClock(),
                 log: @escaping @Sendable (RadioInstant, String) -> Void)
    {
        self.host = host
        self.controller = controller
        self.clock = clock
        self.log = log
    }

    /// Bridges until `stop` is readable; returns the core, whose scheduler holds the totals. Lines on `control` (a
    /// FIFO opened for reading and writing, so it never reads its end) go to the core (`RadioBridgeCore.control`), and
    /// its answers to `answer`.
    /// - Throws: `RadioError` `.io` or `.framing` naming the side.
    package func run(_ model: RadioModel, stop: FileDescriptor, control: FileDescriptor? = nil,
                     answer: (String) -> Void = { _ in }) throws(RadioError) -> RadioBridgeCore
    {
        var ports = PolledSides(host: host, controller: controller, stop: stop, control: control, clock: clock)
        return try Self.run(model, over: &ports, clock: clock, log: log, answer: answer)
    }

    /// The bridge's loop: let go what is due, wait for input or the next release, hand what was read to the core,
    /// carry out what it decides; until `ports` says stop. Every time it reads is `clock`'s, so over ports and a clock
    /// that are virtual the loop runs exactly as over the real ones, in no real time.
    ///
    /// A host that is gone (`.hostGone`: /dev/vhci refuses what the controller sends, as when a program that owned
    /// the controller through the HCI user channel exits with its link up) does not end the bridge: what the host
    /// cannot take is dropped, as a controller's packets to a host that is not listening are lost, with one line when
    /// it starts and one when the host takes packets again. The core still sees every packet, so a link that ends
    /// meanwhile ends in the scheduler too.
    /// - Returns: the core, whose scheduler holds the totals.
    /// - Throws: `RadioError` `.io` or `.framing` naming the side.
    package static func run(_ model: RadioModel, over ports: inout some RadioPorts, clock: any RadioClock,
                            log: (RadioInstant, String) -> Void, answer: (String) -> Void = { _ in }) throws(RadioError) -> RadioBridgeCore
    {
        var core = RadioBridgeCore(model: model)
        var hostFramer = H4Framer(source: ports.name(of: .host))
        var controllerFramer = H4Framer(source: ports.name(of: .controller))
        /// Packets dropped for a host that is gone, since it went (nil while it takes them).
        var droppedForHost: Int?
        func toHost(_ packet: H4Packet) throws(RadioError) {
            do {
                try ports.write(packet, to: .host)
            } catch where error.code == .hostGone {
                if droppedForHost == nil {
                    log(clock.now(), "the host is gone: \(error.what); dropping what the controller sends it until it takes packets again (bluetoothd powers the controller back, or a program opens its user channel)")
                }
                droppedForHost = (droppedForHost ?? 0) + 1
                return
            }
            if let dropped = droppedForHost {
                droppedForHost = nil
                log(clock.now(), "the host takes packets again; \(dropped) packet\(dropped == 1 ? " was" : "s were") dropped while it was gone")
            }
        }
        func perform(_ outputs: [RadioBridgeCore.Output]) throws(RadioError) {
            for output in outputs {
                switch output {
                case .toController(let packet): try ports.write(packet, to: .controller)
                case .toHost(let packet): try toHost(packet)
                case .note(let text): log(clock.now(), text)
                case .answer(let line): answer(line)
                }
            }
        }
        while true {
            try perform(core.due(at: clock.now()))
            switch try ports.wait(until: core.nextRelease) {
            case .stop:
                return core
            case .deadline:
                continue
            case .control(let lines):
                for line in lines { try perform(core.control(line, at: clock.now())) }
            case .readable(let sides):
                for side in sides {
                    let bytes = try ports.read(side)
                    let packets = side == .host ? try hostFramer.append(bytes) : try controllerFramer.append(bytes)
                    for packet in packets {
                        let now = clock.now()
                        try perform(side == .host ? core.fromHost(packet, at: now) : core.fromController(packet, at: now))
                    }
                }
            }
        }
    }
}
