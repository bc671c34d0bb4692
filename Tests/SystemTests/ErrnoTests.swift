import Glibc
import System
import Testing

@Suite("Errno: named cases and the C library's text")
struct ErrnoTests {
    @Test("the named cases are the C values", arguments: [
        (Errno.interrupted, EINTR), (.wouldBlock, EAGAIN), (.noSuchFileOrDirectory, ENOENT), (.permissionDenied, EACCES),
        (.notPermitted, EPERM), (.busy, EBUSY), (.noSuchDevice, ENODEV), (.noSuchDeviceOrAddress, ENXIO),
        (.invalidArgument, EINVAL), (.inappropriateIOCTLForDevice, ENOTTY), (.timedOut, ETIMEDOUT), (.ioError, EIO),
        (.badFileDescriptor, EBADF), (.noSuchProcess, ESRCH), (.addressInUse, EADDRINUSE), (.connectionRefused, ECONNREFUSED),
    ])
    func namedCases(_ named: Errno, _ value: Int32) {
        #expect(named.rawValue == value)
        #expect(named == Errno(value))
    }

    @Test("the description is strerror's text; numbered adds the number")
    func descriptions() {
        #expect(Errno.permissionDenied.description == "Permission denied")
        #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory")
        #expect(Errno.busy.description == "Device or resource busy")
        #expect(Errno.permissionDenied.numbered == "Permission denied (errno 13)")
        #expect("\(Errno.interrupted)" == "Interrupted system call")
    }

    @Test("Errno.current is the errno a failed call left")
    func current() {
        let result = access("/nonexistent/hil-errno-test", F_OK)
        let error = Errno.current
        #expect(result == -1)
        #expect(error == .noSuchFileOrDirectory)
    }

    @Test("named cases match in a switch, as the modules branch on them")
    func switching() {
        func kind(_ errno: Errno) -> String {
            switch errno {
            case .permissionDenied, .notPermitted: "denied"
            case .noSuchFileOrDirectory: "missing"
            default: "other"
            }
        }
        #expect(kind(Errno(EPERM)) == "denied")
        #expect(kind(Errno(ENOENT)) == "missing")
        #expect(kind(.busy) == "other")
    }
}
