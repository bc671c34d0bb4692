import Foundation
import Synchronization
import System

/// One UDP socket (IPv4), bound to a port in a network namespace: the udp transport's movement channel. The
/// computer receives on it (one reader thread); the phone sends from it to the computer's port; the rig's
/// attacker host sends forged packets from one of its own.
package final class UDPSocket: Sendable {
    package let fd: Int32
    /// Closed with the object (after `close` has shut the socket down), so a reader thread never reads a reused number.
    private let descriptor: FileDescriptor
    private let closed = Mutex(false)

    private init(fd: Int32) {
        self.fd = fd
        descriptor = FileDescriptor(owning: fd)
    }

    deinit {
        close()
    }

    /// A socket bound to `port` on 0.0.0.0 (0: the kernel picks one), opened in `netns` when given.
    package static func bind(port: UInt16, netns: String?) throws(NetSocketError) -> UDPSocket {
        try NetworkNamespace.perform(in: netns) { () throws(NetSocketError) -> UDPSocket in
            let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw NetSocketError(.create, "cannot create a UDP socket: \(Errno.current.numbered)") }
            let socket = UDPSocket(fd: fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = INADDR_ANY
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                throw NetSocketError(.bind, "cannot bind UDP port \(port): \(Errno.current.numbered)",
                                     hint: errno == EADDRINUSE ? "another program uses it: `ss -lunp` names it, or choose --udp-port" : nil)
            }
            return socket
        }
    }

    /// The local port.
    package var localPort: UInt16? { TCPSocket.localPort(of: fd) }

    /// Sends one datagram to `host:port`; false when the kernel refused it (no route: an interface down), which
    /// for best-effort movement is a lost packet, as on a real network.
    @discardableResult
    package func send(_ bytes: [UInt8], to host: String, port: UInt16) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return false }
        let sent = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return sent == bytes.count
    }

    /// One datagram received.
    package struct Datagram: Sendable, Hashable {
        package var bytes: [UInt8]
        package var address: String
        package var port: UInt16
    }

    /// Blocks until a datagram arrives; nil once the socket is shut down or closed.
    package func receive(max: Int = 2048) -> Datagram? {
        var buffer = [UInt8](repeating: 0, count: max)
        while true {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, raw.baseAddress, raw.count, 0, $0, &length) }
                }
            }
            if count >= 0 {
                if closed.withLock({ $0 }) { return nil }
                return Datagram(bytes: Array(buffer[0..<count]), address: TCPSocket.text(address.sin_addr),
                                port: UInt16(bigEndian: address.sin_port))
            }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Wakes a blocked `receive` (which returns nil) and stops the socket (its descriptor closes with the object,
    /// so a reader thread never reads a reused one).
    package func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }
}
