import Foundation
import Glibc
package import Synchronization
package import System

/// A bridge in this process, on a thread of its own, between socket pairs that stand for its two sides: a
/// SOCK_SEQPACKET pair for /dev/vhci (one packet per read and write, as the kernel's virtual HCI) and a SOCK_STREAM
/// pair for btvirt's server socket. The caller plays the kernel on `hostEnd` and btvirt on `controllerEnd`.
/// `hil radio --self-test` times it; the unit tests drive it over real files.
package final class LoopbackBridge: Sendable {
    /// The kernel's end: write what the host sends, read what the controller sent it.
    package let hostEnd: FileDescriptor
    /// btvirt's end; the real socket itself when the bridge was given one (then the caller has no end of it).
    package let controllerEnd: FileDescriptor
    /// The bridge's notes, as its log would have them.
    package let notes = Mutex<[String]>([])
    private let stopWrite: FileDescriptor
    private let outcome = Mutex<Result<RadioBridgeCore, RadioError>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the bridge between a socket pair's end and `controller`: btvirt's real socket, or by default the other
    /// socket pair's end. Lines written to `control` (a pipe's read end) reach the bridge as its control FIFO's do.
    /// - Throws: `Errno` when a socket pair or the stop pipe cannot be made.
    package init(_ model: RadioModel, controller real: FileDescriptor? = nil, control: FileDescriptor? = nil,
                 clock: any RadioClock = MonotonicClock()) throws(Errno)
    {
        let host = try Self.pair(packets: true)
        let controller = if let real { (real, real) } else { try Self.pair(packets: false) }
        let (stopRead, stopWrite) = try FileDescriptor.pipe()
        hostEnd = host.1
        controllerEnd = controller.1
        self.stopWrite = stopWrite
        let bridge = RadioBridge(
            host: .init(file: host.0, name: "/dev/vhci (loopback)"),
            controller: .init(file: controller.0, name: "btvirt's socket (loopback)"), clock: clock,
            log: { [self] _, text in notes.withLock { $0.append(text) } })
        Thread { [self] in
            let result = Result { () throws(RadioError) in try bridge.run(model, stop: stopRead, control: control) }
            outcome.withLock { $0 = result }
            finished.signal()
        }.start()
    }

    /// A connected pair of unix sockets: SOCK_SEQPACKET with `packets` (one packet per read, as /dev/vhci), else
    /// SOCK_STREAM (as btvirt's socket). The corresponding C function is `socketpair`.
    package static func pair(packets: Bool) throws(Errno) -> (FileDescriptor, FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        let type = Int32((packets ? SOCK_SEQPACKET : SOCK_STREAM).rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw Errno.current }
        return (FileDescriptor(owning: fds[0]), FileDescriptor(owning: fds[1]))
    }

    /// The next bytes readable on `file` within `seconds`, or nil (none came, or the file closed).
    package static func read(_ file: FileDescriptor, within seconds: Double = 2) -> [UInt8]? {
        var entry = pollfd(fd: file.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(seconds * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(file.rawValue, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer.prefix(count)) : nil
    }

    /// What the bridge returned or threw once it ended by itself within `seconds`; nil while it still runs.
    package func outcome(within seconds: Double) -> Result<RadioBridgeCore, RadioError>? {
        guard finished.wait(timeout: .now() + seconds) == .success else { return nil }
        finished.signal()  // for the next caller
        return outcome.withLock { $0 }
    }

    /// Stops the bridge through its stop pipe and returns what it returned or threw; nil when it did not stop within
    /// `seconds`.
    /// - Throws: `Errno` when the stop pipe cannot be written.
    package func stop(within seconds: Double) throws(Errno) -> Result<RadioBridgeCore, RadioError>? {
        try stopWrite.writeAll([1])
        return outcome(within: seconds)
    }
}
