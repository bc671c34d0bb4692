import CLinux
import Glibc
import System

/// The bridge's real ports: the host's and the controller's files and a stop pipe, waited on by one ppoll whose
/// timeout is in nanoseconds (poll's own, in milliseconds, would move each release by up to one).
struct PolledSides: RadioPorts {
    var host: RadioBridge.Side
    var controller: RadioBridge.Side
    var stop: FileDescriptor
    var clock: any RadioClock
    private var buffer = [UInt8](repeating: 0, count: 8192)

    init(host: RadioBridge.Side, controller: RadioBridge.Side, stop: FileDescriptor, clock: any RadioClock) {
        self.host = host
        self.controller = controller
        self.stop = stop
        self.clock = clock
    }

    func name(of side: RadioSide) -> String { self.side(side).name }

    private func side(_ side: RadioSide) -> RadioBridge.Side { side == .host ? host : controller }

    /// The corresponding C function is `ppoll`.
    mutating func wait(until deadline: RadioInstant?) throws(RadioError) -> RadioWake {
        let timeout = deadline.map { max(0, clock.now().distance(to: $0)) } ?? -1
        var entries = [host.file.rawValue, controller.file.rawValue, stop.rawValue].map {
            pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
        }
        let ready = entries.withUnsafeMutableBytes { hil_poll_nanoseconds($0.baseAddress, 3, timeout) }
        if ready < 0 {
            let error = Errno.current
            if error == .interrupted { return .deadline }
            throw RadioError(.io, "poll over \(host.name) and \(controller.name) failed: \(error.numbered)")
        }
        if entries[2].revents != 0 { return .stop }
        let sides = zip(RadioSide.allCases, entries).filter { $0.1.revents != 0 }.map(\.0)
        return sides.isEmpty ? .deadline : .readable(sides)
    }

    mutating func read(_ which: RadioSide) throws(RadioError) -> [UInt8] {
        let side = side(which)
        let count: Int
        do {
            count = try side.file.read(into: &buffer)
        } catch {
            throw RadioError(.io, "cannot read \(side.name): \(error.numbered)")
        }
        guard count > 0 else {
            throw RadioError(.io, "\(side.name) closed", hint: which == .host ? nil : "did btvirt exit? its log says why")
        }
        return Array(buffer[0..<count])
    }

    /// One packet, one write: /dev/vhci takes a whole packet per write.
    mutating func write(_ packet: H4Packet, to which: RadioSide) throws(RadioError) {
        let side = side(which)
        do {
            try side.file.writeAll(packet.bytes)
        } catch {
            throw RadioError(.io, "cannot write \(packet) to \(side.name): \(error.numbered)")
        }
    }
}
