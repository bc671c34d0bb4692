import Foundation
import System

/// Writing the phone's commands into the socket `AcquireWrite` handed out: one packet per command.
package enum AcquiredSocket {
    /// Writes one packet. When the socket is full (the link is not keeping up) it waits for room, as a phone
    /// would, but not forever: 5 s without room is the computer no longer taking writes.
    /// - Returns: how many times the socket was full.
    @discardableResult
    package static func write(_ fd: Int32, _ bytes: [UInt8], what: @autoclosure () -> String) throws(LinkError) -> Int {
        var full = 0
        var silentSeconds = 0
        while Glibc.write(fd, bytes, bytes.count) != bytes.count {
            guard errno == EAGAIN || errno == EWOULDBLOCK else {
                throw LinkError(.link, "writing \(what()) to the acquired command socket failed: \(Errno.current)")
            }
            full += 1
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&poller, 1, 1000) == 0 { silentSeconds += 1 }
            if silentSeconds >= 5 {
                throw LinkError(.link, "the computer stopped taking writes: the command socket stayed full for 5 s (writing \(what())); its last lines are in peripheral.out")
            }
        }
        return full
    }
}
