import Glibc

/// An `errno` value, in swift-system's manner: a value type with named cases, and the C library's text as its
/// description. Every module of the package reports a failed system call with it (read `Errno.current` right after
/// the call that failed); the module's own error then adds what was being done and what to do next.
package struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: Int32

    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    package init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno`, read right after a failed call.
    package static var current: Errno { Errno(Glibc.errno) }

    /// The C library's text for it: `Permission denied`. The corresponding C function is `strerror`.
    package var description: String { String(cString: strerror(rawValue)) }

    /// The text with the number, for logs and messages read by someone who will search for it:
    /// `Permission denied (errno 13)`.
    package var numbered: String { "\(description) (errno \(rawValue))" }

    /// EINTR: a signal interrupted the call; the helpers in this module retry it.
    package static let interrupted = Errno(EINTR)
    /// EAGAIN (EWOULDBLOCK): nothing to read or no room to write now, on a non-blocking descriptor.
    package static let wouldBlock = Errno(EAGAIN)
    /// ENOENT.
    package static let noSuchFileOrDirectory = Errno(ENOENT)
    /// EACCES: the file's permissions deny it.
    package static let permissionDenied = Errno(EACCES)
    /// EPERM: the operation needs a privilege (root, a capability) the process lacks.
    package static let notPermitted = Errno(EPERM)
    /// EBUSY: another process holds the resource (a grabbed input device).
    package static let busy = Errno(EBUSY)
    /// ENODEV: no such device (a device that was removed, a driver that is missing).
    package static let noSuchDevice = Errno(ENODEV)
    /// ENXIO: no such device or address.
    package static let noSuchDeviceOrAddress = Errno(ENXIO)
    /// EINVAL.
    package static let invalidArgument = Errno(EINVAL)
    /// ENOTTY: an ioctl the file does not answer (it is not the device it was taken for).
    package static let inappropriateIOCTLForDevice = Errno(ENOTTY)
    /// ETIMEDOUT.
    package static let timedOut = Errno(ETIMEDOUT)
    /// EIO: a low-level input/output error; also what a library reports when it gave no errno.
    package static let ioError = Errno(EIO)
    /// EBADF: a descriptor that is not open.
    package static let badFileDescriptor = Errno(EBADF)
    /// ESRCH: no such process.
    package static let noSuchProcess = Errno(ESRCH)
    /// EADDRINUSE: another socket is bound to the address.
    package static let addressInUse = Errno(EADDRINUSE)
    /// ECONNREFUSED: nothing listens at the address.
    package static let connectionRefused = Errno(ECONNREFUSED)
}
