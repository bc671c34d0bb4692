import Foundation
import System

/// One end of a SOCK_SEQPACKET socket pair handed to bluetoothd by `AcquireWrite` / `AcquireNotify`: one
/// packet is one ATT value. A reader thread delivers incoming packets until the peer closes (link dropped).
final class SocketChannel: @unchecked Sendable {
    // Safety: `fd` and `descriptor` are written once in init; `closed` is guarded by `lock`.
    let fd: Int32
    private let descriptor: FileDescriptor
    private let lock = NSLock()
    private var closed = false

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

    /// Reads packets on a thread of its own until EOF or `close()`, then calls `ended`.
    func startReading(mtu: Int, _ packet: @escaping @Sendable ([UInt8]) -> Void, ended: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: max(mtu, 512) + 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    packet(Array(buffer[0..<count]))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            ended()
        }
        thread.name = "acquired-write"
        thread.start()
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
