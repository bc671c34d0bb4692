import Glibc
package import System

/// Unix-domain stream sockets by path: a client of a local server (btvirt's server sockets, /tmp/bt-server-le).
package enum UnixSocket {
    /// A connection to the stream socket at `path`. The corresponding C functions are `socket(AF_UNIX)` and `connect`.
    /// - Throws: `NetSocketError` naming the path: no such socket, nothing listening, or a path too long for
    ///   `sockaddr_un` (107 bytes).
    package static func connect(path: String) throws(NetSocketError) -> FileDescriptor {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw NetSocketError(.invalidAddress, "cannot connect to \(path): a unix socket path has 1 to \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let number = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard number >= 0 else { throw NetSocketError(.create, "cannot create a unix socket: \(Errno.current.numbered)") }
        let descriptor = FileDescriptor(owning: number)
        while true {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(number, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result == 0 { return descriptor }
            let error = Errno.current
            if error == .interrupted { continue }
            let hint: String? = switch error {
            case .noSuchFileOrDirectory, .connectionRefused: "is the server running? (for btvirt's: `btvirt -L -s`)"
            default: nil
            }
            throw NetSocketError(.connect, "cannot connect to \(path): \(error.numbered)", hint: hint)
        }
    }
}
