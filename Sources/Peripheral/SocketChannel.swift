import Foundation
import System

/// One end of a SOCK_SEQPACKET socket pair handed to bluetoothd by `AcquireWrite` / `AcquireNotify`: one
/// packet is one ATT value. A reader thread delivers incoming packets until the peer closes (link dropped).
final class SocketChannel: @unchecked Sendable {
    // Safety: `fd` and `descriptor` are written once in init; `closed` is guarded by `lock`; `deliver` is set once
    // before the reader starts and every packet is taken off the socket and delivered under `delivering`.
    let fd: Int32
    private let descriptor: FileDescriptor
    private let lock = NSLock()
    private var closed = false
    /// Held while packets are taken off the socket and delivered, by the reader thread or by `drain()`: whoever
    /// takes a packet delivers it before the next is taken, so packets are delivered in the socket's order.
    private let delivering = NSLock()
    private var deliver: (@Sendable ([UInt8]) -> Void)?
    private var buffer: [UInt8] = []

    /// Makes a socket pair; returns our channel and the descriptor to give bluetoothd (it is ours to close
    /// once sent: D-Bus duplicates it).
    static func pair() throws(PeripheralError) -> (SocketChannel, theirs: Int32) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw PeripheralError(.systemCall, "socketpair failed: \(Errno.current)")
        }
        return (SocketChannel(fd: fds[0]), fds[1])
    }

    private init(fd: Int32) {
        self.fd = fd
        descriptor = FileDescriptor(owning: fd)
    }

    /// Reads packets on a thread of its own until EOF or `close()`, then calls `ended`. The thread waits for the
    /// socket to become readable and takes what is there under `delivering`, as `drain()` does.
    func startReading(mtu: Int, _ packet: @escaping @Sendable ([UInt8]) -> Void, ended: @escaping @Sendable () -> Void) {
        delivering.withLock {
            deliver = packet
            buffer = [UInt8](repeating: 0, count: max(mtu, 512) + 16)
        }
        let thread = Thread { [self] in
            while true {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, -1)
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0, delivering.withLock({ deliverPending() }) else { break }
            }
            ended()
        }
        thread.name = "acquired-write"
        thread.start()
    }

    /// Delivers, in order, every packet already waiting on the socket, on the calling thread. A write that reaches
    /// the computer by another path (a D-Bus write request) calls it first: bluetoothd forwards what arrived before
    /// the request on this socket, and a report or command written earlier must not be applied after it.
    func drain() {
        delivering.withLock { _ = deliverPending() }
    }

    /// Takes every waiting packet off the socket and delivers it; false once the socket is at its end or failed.
    /// Called under `delivering`.
    private func deliverPending() -> Bool {
        guard let deliver else { return true }
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                deliver(Array(buffer[0..<count]))
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return true
            } else {
                return false
            }
        }
    }

    enum SendResult {
        case sent
        /// The peer is not reading fast enough and the socket is full; nothing was sent.
        case full
        /// The peer is gone.
        case closed
    }

    /// Sends one packet without ever blocking: a phone that does not read its notifications must not stall
    /// whoever sends them (the command path publishes an error status for every refused write).
    func send(_ bytes: [UInt8]) -> SendResult {
        lock.withLock {
            guard !closed else { return .closed }
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent == bytes.count { return .sent }
            return sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? .full : .closed
        }
    }

    func close() {
        lock.withLock {
            guard !closed else { return }
            closed = true
            shutdown(fd, Int32(SHUT_RDWR))
            descriptor.close()
        }
    }
}
