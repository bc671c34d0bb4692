import CLinux
import Glibc
import System

/// The bridge's real ports: the host's and the controller's files and a stop pipe, waited on by one ppoll whose
/// timeout is in nanoseconds (poll's own, in milliseconds, would move each release by up to one).
struct PolledSides: RadioPorts {
    var host: RadioBridge.Side
    var controller: RadioBridge.Side
    var stop: FileDescriptor
    /// The control FIFO (`hil radio --control`), if any: its lines come out as `.control`.
    var control: FileDescriptor?
    var clock: any RadioClock
    private var buffer = [UInt8](repeating: 0, count: 8192)
    /// The control FIFO's bytes after its last newline.
    private var controlPending: [UInt8] = []

    init(host: RadioBridge.Side, controller: RadioBridge.Side, stop: FileDescriptor, control: FileDescriptor? = nil,
         clock: any RadioClock)
    {
        self.host = host
        self.controller = controller
        self.stop = stop
        self.control = control
        self.clock = clock
    }

    func name(of side: RadioSide) -> String { self.side(side).name }

    private func side(_ side: RadioSide) -> RadioBridge.Side { side == .host ? host : controller }

    /// The poll's entries, made once: host, controller, stop, control (-1 without one: poll skips it).
    private var entries: [pollfd] = []

    /// The corresponding C function is `ppoll`.
    mutating func wait(until deadline: RadioInstant?) throws(RadioError) -> RadioWake {
        let timeout = deadline.map { max(0, clock.now().distance(to: $0)) } ?? -1
        if entries.isEmpty {
            entries = [host.file.rawValue, controller.file.rawValue, stop.rawValue, control?.rawValue ?? -1].map {
                pollfd(fd: $0, events: Int16(POLLIN), revents: 0)  // a negative fd is ignored by poll
            }
        }
        let ready = entries.withUnsafeMutableBufferPointer { entries in
            for index in entries.indices { entries[index].revents = 0 }
            return hil_poll_nanoseconds(entries.baseAddress, UInt(entries.count), timeout)
        }
        if ready < 0 {
            let error = Errno.current
            if error == .interrupted { return .deadline }
            throw RadioError(.io, "poll over \(host.name) and \(controller.name) failed: \(error.numbered)")
        }
        if entries[2].revents != 0 { return .stop }
        if entries[3].revents != 0, let lines = try readControl(), !lines.isEmpty { return .control(lines) }
        switch (entries[0].revents != 0, entries[1].revents != 0) {
        case (true, true): return .readable([.host, .controller])
        case (true, false): return .readable([.host])
        case (false, true): return .readable([.controller])
        case (false, false): return .deadline
        }
    }

    /// The complete lines the control FIFO has now.
    private mutating func readControl() throws(RadioError) -> [String]? {
        guard let control else { return nil }
        let count = buffer.withUnsafeMutableBytes { Glibc.read(control.rawValue, $0.baseAddress, $0.count) }
        if count < 0 {
            let error = Errno.current
            if error == .interrupted || error == .wouldBlock { return [] }
            throw RadioError(.io, "cannot read the control FIFO: \(error.numbered)")
        }
        controlPending.append(contentsOf: buffer[0..<count])
        guard let last = controlPending.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let text = String(decoding: controlPending[..<last], as: UTF8.self)
        controlPending.removeFirst(last + 1)
        return text.split(separator: "\n").map(String.init).filter { !$0.allSatisfy { $0 == " " || $0 == "\r" } }
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
    /// module is optimized in every build and the call stays in it. The kernel refuses a packet for a controller that
    /// is down (hci_recv_frame: ENXIO), as it is between a user channel closing and bluetoothd powering it again:
    /// that is `.hostGone`, which the loop survives (`RadioBridge.run`).
    mutating func write(_ packet: H4Packet, to which: RadioSide) throws(RadioError) {
        let side = side(which)
        var offset = 0
        while offset < packet.bytes.count {
            let written = packet.bytes.withUnsafeBytes { Glibc.write(side.file.rawValue, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                let error = Errno.current
                if error == .interrupted { continue }
                if which == .host, error == .noSuchDeviceOrAddress || error == .noSuchDevice {
                    throw RadioError(.hostGone, "\(side.name) refused \(packet): \(error.numbered)")
                }
                throw RadioError(.io, "cannot write \(packet) to \(side.name): \(error.numbered)")
            }
            offset += written
        }
    }
}
