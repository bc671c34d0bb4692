import CLinux
import Foundation
import Synchronization
import System

/// A network namespace made by `ip netns add NAME` (`/run/netns/NAME`). Sockets belong to the namespace they
/// were created in, so the rig's phone and computer open theirs in their own host's namespace, from a thread
/// that entered it, and use them from anywhere.
package enum NetworkNamespace {
    /// Runs `body` on a fresh thread inside namespace `name` (the calling thread when nil) and returns its result.
    package static func perform<T: Sendable>(in name: String?, _ body: @escaping @Sendable () throws(NetSocketError) -> T)
        throws(NetSocketError) -> T
    {
        guard let name else { return try body() }
        let result = Mutex<Result<T, NetSocketError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            let path = "/run/netns/" + name
            let namespace: FileDescriptor
            do throws(Errno) {
                namespace = try FileDescriptor.open(path, O_RDONLY)
            } catch {
                result.withLock { $0 = .failure(NetSocketError(.namespace, "cannot open the network namespace \(path): \(error.numbered)",
                                                               hint: "is the rig's two-host network up? `hil doctor` checks it")) }
                return
            }
            defer { namespace.close() }
            guard hil_enter_network_namespace(namespace.rawValue) == 0 else {
                result.withLock { $0 = .failure(NetSocketError(.namespace, "cannot enter the network namespace \(name): \(Errno.current.numbered)",
                                                               hint: "entering a namespace needs root (CAP_SYS_ADMIN)")) }
                return
            }
            do throws(NetSocketError) {
                let value = try body()
                result.withLock { $0 = .success(value) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
        }
        thread.name = "netns-" + name
        thread.start()
        done.wait()
        guard let outcome = result.withLock({ $0 }) else { throw NetSocketError(.namespace, "the namespace thread for \(name) returned nothing") }
        return try outcome.get()
    }
}
