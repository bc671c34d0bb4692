import Foundation
import Synchronization
import System

/// One TCP socket (IPv4): a listener or a connection. Reads block the calling thread (each connection has a
/// reader thread of its own); sends are serialised, and `sendNow` never blocks.
package final class TCPSocket: Sendable {
    /// The descriptor's number. It stays open until the object goes (`close` only shuts the socket down), so a
    /// thread still in `accept` or `receive`, or one about to call it, never reaches another socket that reused the
    /// number: a listener's accept thread that looped once more after `close` took another test's connections.
    package let fd: Int32
    private let descriptor: FileDescriptor
    private let closed = Mutex(false)
    private let sending = Mutex(())

    init(fd: Int32) {
        self.fd = fd
        descriptor = FileDescriptor(owning: fd)
    }

    deinit {
        close()
    }

    // MARK: Opening

    /// A listener on `port` (0.0.0.0), opened in network namespace `netns` when given.
    package static func listen(port: UInt16, netns: String?, backlog: Int32 = 16) throws(NetSocketError) -> TCPSocket {
        try NetworkNamespace.perform(in: netns) { () throws(NetSocketError) -> TCPSocket in
            let socket = try make()
            var one: Int32 = 1
            setsockopt(socket.fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = INADDR_ANY
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                throw NetSocketError(.bind, "cannot listen on TCP port \(port): \(Errno.current.numbered)",
                                     hint: errno == EADDRINUSE ? "another program (another hil peripheral?) listens there: `ss -ltnp` names it, or choose --tcp-port" : nil)
            }
            guard Glibc.listen(socket.fd, backlog) == 0 else { throw NetSocketError(.bind, "listen on TCP port \(port) failed: \(Errno.current.numbered)") }
            return socket
        }
    }

    /// A connection to `host:port` (an IPv4 address), opened in `netns` when given; fails after `timeout`.
    package static func connect(to host: String, port: UInt16, netns: String?, timeout: Duration) throws(NetSocketError) -> TCPSocket {
        try NetworkNamespace.perform(in: netns) { () throws(NetSocketError) -> TCPSocket in
            let socket = try make()
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw NetSocketError(.invalidAddress, "\(host) is not an IPv4 address") }
            socket.setSendTimeout(timeout)
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket.fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 else {
                let code = errno
                throw NetSocketError(.connect, "cannot connect to \(host):\(port): \(Errno(code).numbered)",
                                     hint: code == ECONNREFUSED ? "nothing listens there: is the computer running?" : nil)
            }
            socket.setSendTimeout(.zero)
            var one: Int32 = 1
            setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            return socket
        }
    }

    private static func make() throws(NetSocketError) -> TCPSocket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw NetSocketError(.create, "cannot create a TCP socket: \(Errno.current.numbered)") }
        return TCPSocket(fd: fd)
    }

    /// The local port (a listener on port 0 gets one from the kernel).
    package var localPort: UInt16? { Self.localPort(of: fd) }

    /// The port an IPv4 socket is bound to (`getsockname`).
    static func localPort(of fd: Int32) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return result == 0 ? UInt16(bigEndian: address.sin_port) : nil
    }

    /// Waits for the next connection; nil once the listener is closed.
    package func accept() -> (TCPSocket, peer: String, port: UInt16)? {
        while true {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(self.fd, $0, &length) }
            }
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return (TCPSocket(fd: fd), Self.text(address.sin_addr), UInt16(bigEndian: address.sin_port))
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
    }

    static func text(_ address: in_addr) -> String {
        var address = address
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Options

    /// TCP keep-alive: a dead peer is noticed after `idle` + `interval` × `count` of silence.
    package func setKeepAlive(idle: Int32, interval: Int32, count: Int32) {
        var on: Int32 = 1, idle = idle, interval = interval, count = count
        let size = socklen_t(MemoryLayout<Int32>.size)
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, size)
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &idle, size)
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, &interval, size)
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPCNT, &count, size)
    }

    /// The kernel aborts the connection (ETIMEDOUT) when sent data stays unacknowledged this long
    /// (`TCP_USER_TIMEOUT`): how an app notices a network that stopped carrying packets without waiting minutes.
    package func setUserTimeout(_ timeout: Duration) {
        var milliseconds = UInt32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, &milliseconds, socklen_t(MemoryLayout<UInt32>.size))
    }

    /// A blocking `receive` returns `.timedOut` after `timeout` without data (zero: wait forever).
    package func setReceiveTimeout(_ timeout: Duration) { setTimeout(SO_RCVTIMEO, timeout) }

    private func setSendTimeout(_ timeout: Duration) { setTimeout(SO_SNDTIMEO, timeout) }

    private func setTimeout(_ option: Int32, _ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    // MARK: Data

    package enum Received: Sendable, Equatable {
        case bytes([UInt8])
        case timedOut
        /// The peer closed (0) or the connection failed (the error's text).
        case ended(String?)
    }

    /// Blocks until bytes arrive, the receive timeout passes, or the connection ends.
    package func receive(max: Int = 65_536) -> Received {
        var buffer = [UInt8](repeating: 0, count: max)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .bytes(Array(buffer[0..<count])) }
            if count == 0 { return .ended(nil) }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return .timedOut }
            return .ended(Errno.current.numbered)
        }
    }

    package enum SendResult: Sendable, Equatable {
        case sent
        /// The peer is not reading and the socket buffer is full: nothing (or part) was sent.
        case full
        case closed
    }

    /// Sends all of `bytes`, blocking while the socket buffer is full.
    package func send(_ bytes: [UInt8]) -> SendResult {
        sending.withLock { _ in transmit(bytes, flags: MSG_NOSIGNAL) }
    }

    /// Sends `bytes` only if they fit at once (never blocks): status and refusals must not stall the command path.
    package func sendNow(_ bytes: [UInt8]) -> SendResult {
        sending.withLock { _ in transmit(bytes, flags: MSG_NOSIGNAL | MSG_DONTWAIT) }
    }

    private func transmit(_ bytes: [UInt8], flags: Int) -> SendResult {
        guard !closed.withLock({ $0 }) else { return .closed }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(flags)) }
            if sent > 0 {
                offset += sent
                continue
            }
            if sent < 0 && errno == EINTR { continue }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && flags & MSG_DONTWAIT != 0 && offset == 0 { return .full }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { continue }
            return .closed
        }
        return .sent
    }

    /// Ends the connection in both directions (a reader blocked in `receive` returns); the descriptor stays
    /// open until `close`.
    package func shutdown() {
        guard !closed.withLock({ $0 }) else { return }
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Aborts the connection with a reset (RST) instead of an orderly close: a fault to inject. Only the last close
    /// of the descriptor sends the RST, so this one closes it at once (its number may then be reused: the caller's
    /// reader must not read it again).
    package func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
        descriptor.close()
    }

    /// Shuts the socket down: a blocked `accept` or `receive` returns, later ones fail, the peer sees the end. The
    /// descriptor itself is closed with the object.
    package func close() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }
}
