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

    /// The poll's entries, made once: host, controller, stop (the loop waits once per packet or event).
    private var entries: [pollfd] = []

    /// The corresponding C function is `ppoll`.
    mutating func wait(until deadline: RadioInstant?) throws(RadioError) -> RadioWake {
        let timeout = deadline.map { max(0, clock.now().distance(to: $0)) } ?? -1
        if entries.isEmpty {
            entries = [host.file.rawValue, controller.file.rawValue, stop.rawValue].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        }
        let ready = entries.withUnsafeMutableBufferPointer { entries in
            for index in entries.indices { entries[index].revents = 0 }
            return hil_poll_nanoseconds(entries.baseAddress, 3, timeout)
        }
        if ready < 0 {
            let error = Errno.current
            if error == .interrupted { return .deadline }
            throw RadioError(.io, "poll over \(host.name) and \(controller.name) failed: \(error.numbered)")
        }
        if entries[2].revents != 0 { return .stop }
        switch (entries[0].revents != 0, entries[1].revents != 0) {
        case (true, true): return .readable([.host, .controller])
        case (true, false): return .readable([.host])
        case (false, true): return .readable([.controller])
        case (false, false): return .deadline
        }
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

    /// One packet, one write: /dev/vhci takes a whole packet per write. Glibc's write, not System's writeAll: this
    /// module is optimized in every build and the call stays in it.
    mutating func write(_ packet: H4Packet, to which: RadioSide) throws(RadioError) {
        let side = side(which)
        var offset = 0
        while offset < packet.bytes.count {
            let written = packet.bytes.withUnsafeBytes { Glibc.write(side.file.rawValue, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                let error = Errno.current
                if error == .interrupted { continue }
                throw RadioError(.io, "cannot write \(packet) to \(side.name): \(error.numbered)")
            }
            offset += written
        }
    }
}
