import Glibc
import System
import Testing

@Suite("FileDescriptor: one owner, closed once")
struct FileDescriptorTests {
    /// Whether `number` is an open descriptor of this process on `path`'s file. Other tests run in this process at
    /// the same time and may be handed a number just closed here: only the same file counts.
    static func isOpen(_ number: Int32, on path: String) -> Bool {
        var open = stat()
        var file = stat()
        return fstat(number, &open) == 0 && stat(path, &file) == 0 && open.st_ino == file.st_ino && open.st_dev == file.st_dev
    }

    /// A file of this test's own.
    static func scratch() throws -> String {
        let path = "/tmp/hil-fd-test-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let descriptor = try FileDescriptor.open(path, O_WRONLY | O_CREAT, permissions: 0o600)
        descriptor.close()
        return path
    }

    @Test("close closes once: a second close, and the deinit, leave a descriptor that reuses the number alone")
    func closesOnce() throws {
        let path = try Self.scratch()
        defer { unlink(path) }
        var first: FileDescriptor? = try FileDescriptor.open(path, O_RDONLY)
        let number = try #require(first?.rawValue)
        #expect(Self.isOpen(number, on: path))
        first?.close()
        #expect(!Self.isOpen(number, on: path))
        #expect(first?.rawValue == -1)
        #expect(first?.isOpen == false)
        // The kernel hands out the lowest free number: the next open gets the one just closed, unless another test's
        // open took it in between.
        let second = try FileDescriptor.open(path, O_RDONLY)
        first?.close()
        first = nil
        #expect(Self.isOpen(second.rawValue, on: path), "closing the first descriptor again closed the second")
        second.close()
    }

    @Test("the deinit closes a descriptor nobody closed")
    func deinitCloses() throws {
        let path = try Self.scratch()
        defer { unlink(path) }
        var descriptor: FileDescriptor? = try FileDescriptor.open(path, O_RDONLY)
        let number = try #require(descriptor?.rawValue)
        descriptor = nil
        #expect(!Self.isOpen(number, on: path))
    }

    @Test("closeAfter closes when the body returns and when it throws")
    func closeAfter() throws {
        let path = try Self.scratch()
        defer { unlink(path) }
        let descriptor = try FileDescriptor.open(path, O_RDONLY)
        let number = descriptor.rawValue
        let flags = descriptor.closeAfter { fcntl($0.rawValue, F_GETFD) }
        #expect(flags & FD_CLOEXEC != 0, "open adds O_CLOEXEC")
        #expect(!Self.isOpen(number, on: path))

        let other = try FileDescriptor.open(path, O_RDONLY)
        #expect(throws: Errno.self) {
            try other.closeAfter { (_: FileDescriptor) throws(Errno) in throw Errno.ioError }
        }
        #expect(!other.isOpen)
    }

    @Test("a pipe carries what is written, ends when its writer closes, and is closed on exec")
    func pipeRoundTrip() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        #expect(fcntl(readEnd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(writeEnd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        try writeEnd.writeAll(Array("hello".utf8))
        writeEnd.close()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 3)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try readEnd.read(into: $0) }
            if count == 0 { break }
            received += buffer[..<count]
        }
        #expect(String(decoding: received, as: UTF8.self) == "hello")
    }

    @Test("opening a file that does not exist throws its Errno; reading a closed descriptor is EBADF")
    func failures() throws {
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileDescriptor.open("/nonexistent/hil-fd-test", O_RDONLY) }
        let descriptor = try FileDescriptor.open("/dev/null", O_RDONLY)
        descriptor.close()
        var byte: UInt8 = 0
        #expect(throws: Errno.badFileDescriptor) {
            _ = try withUnsafeMutableBytes(of: &byte) { try descriptor.read(into: $0) }
        }
    }
}

@Suite("SystemError: what failed, why, what next")
struct SystemErrorTests {
    @Test("the description names the thing, the errno's text, the last lines of the details and the hint")
    func description() {
        let error = SystemError(.systemCall, "cannot open /dev/uinput", errno: .permissionDenied,
                                details: (1...12).map { "line \($0)" }.joined(separator: "\n") + "\n",
                                hint: "run as root")
        #expect(error.message == "cannot open /dev/uinput: Permission denied")
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines.first == "cannot open /dev/uinput: Permission denied")
        #expect(lines.dropFirst().first == "  | line 3")
        #expect(lines.count == 1 + SystemError.detailLines + 1)
        #expect(lines.last == "  → run as root")
        #expect(SystemError(.systemCall, "plain").description == "plain")
    }
}
