import CLinux
import Glibc
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

    /// Bridges until `stop` is readable; returns the core, whose scheduler holds the totals.
    /// - Throws: `RadioError` `.io` or `.framing` naming the side.
    package func run(_ model: RadioModel, stop: FileDescriptor) throws(RadioError) -> RadioBridgeCore {
        var core = RadioBridgeCore(model: model)
        var hostFramer = H4Framer(source: host.name), controllerFramer = H4Framer(source: controller.name)
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            try perform(core.due(at: clock.now()))
            let timeout = core.nextRelease.map { max(0, clock.now().distance(to: $0)) } ?? -1
            var entries = [host.file.rawValue, controller.file.rawValue, stop.rawValue].map {
                pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
            }
            let ready = entries.withUnsafeMutableBytes { hil_poll_nanoseconds($0.baseAddress, 3, timeout) }
            if ready < 0 {
                let error = Errno.current
                if error == .interrupted { continue }
                throw RadioError(.io, "poll over \(host.name) and \(controller.name) failed: \(error.numbered)")
            }
            if entries[2].revents != 0 { return core }
            if entries[0].revents != 0 {
                for packet in try read(host, into: &buffer, framer: &hostFramer) {
                    try perform(core.fromHost(packet, at: clock.now()))
                }
            }
            if entries[1].revents != 0 {
                for packet in try read(controller, into: &buffer, framer: &controllerFramer) {
                    try perform(core.fromController(packet, at: clock.now()))
                }
            }
        }
    }

    private func read(_ side: Side, into buffer: inout [UInt8], framer: inout H4Framer) throws(RadioError) -> [H4Packet] {
        let count: Int
        do {
            count = try side.file.read(into: &buffer)
        } catch {
            throw RadioError(.io, "cannot read \(side.name): \(error.numbered)")
        }
        guard count > 0 else {
            throw RadioError(.io, "\(side.name) closed", hint: side.name.contains("vhci") ? nil : "did btvirt exit? its log says why")
        }
        return try framer.append(buffer[0..<count])
    }

    private func perform(_ outputs: [RadioBridgeCore.Output]) throws(RadioError) {
        for output in outputs {
            switch output {
            case .toController(let packet): try write(packet, to: controller)
            case .toHost(let packet): try write(packet, to: host)
            case .note(let text): log(clock.now(), text)
            }
        }
    }

    /// One packet, one write: /dev/vhci takes a whole packet per write.
    private func write(_ packet: H4Packet, to side: Side) throws(RadioError) {
        do {
            try side.file.writeAll(packet.bytes)
        } catch {
            throw RadioError(.io, "cannot write \(packet) to \(side.name): \(error.numbered)")
        }
    }
}
