import Foundation
import Radio
import Synchronization
import System
import Testing

/// Two socket pairs stand for the two sides: a SOCK_SEQPACKET pair for /dev/vhci (one packet per read and write, as
/// the kernel's virtual HCI) and a SOCK_STREAM pair for btvirt's server socket.
final class BridgeHarness: Sendable {
    let hostEnd: FileDescriptor, controllerEnd: FileDescriptor, stopWrite: FileDescriptor
    let log = NoteLog()
    let outcome = Mutex<Result<RadioBridgeCore, RadioError>?>(nil)
    let finished = DispatchSemaphore(value: 0)

    /// The bridge between a socket pair's end (`hostEnd` is the test's, as the kernel) and `controller`: btvirt's real
    /// socket, or by default the other socket pair's end (`controllerEnd` is the test's).
    init(_ model: RadioModel, controller real: FileDescriptor? = nil) throws {
        let host = try Self.pair(SOCK_SEQPACKET), controller = try real.map { ($0, $0) } ?? Self.pair(SOCK_STREAM)
        let (stopRead, stopWrite) = try FileDescriptor.pipe()
        hostEnd = host.1
        controllerEnd = controller.1
        self.stopWrite = stopWrite
        let bridge = RadioBridge(
            host: .init(file: host.0, name: "/dev/vhci (test)"), controller: .init(file: controller.0, name: "btvirt's socket (test)"),
            log: { [log] _, text in log.lines.withLock { $0.append(text) } })
        let thread = Thread { [self] in
            let result = Result { () throws(RadioError) in try bridge.run(model, stop: stopRead) }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        thread.start()
    }

    static func pair(_ type: __socket_type) throws -> (FileDescriptor, FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { throw Errno.current }
        return (FileDescriptor(owning: fds[0]), FileDescriptor(owning: fds[1]))
    }

    /// The next bytes readable on `file` within `timeout` seconds, or nil.
    static func read(_ file: FileDescriptor, within timeout: Double = 2) -> [UInt8]? {
        var entry = pollfd(fd: file.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(file.rawValue, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer.prefix(count)) : nil
    }

    /// Stops the bridge and returns what it returned or threw.
    func stop() throws -> Result<RadioBridgeCore, RadioError> {
        try stopWrite.writeAll([1])
        #expect(finished.wait(timeout: .now() + 5) == .success, "the bridge did not stop within 5 s of its stop pipe")
        return try #require(outcome.withLock { $0 })
    }
}

/// The bridge's notes, as its log would have them.
final class NoteLog: Sendable {
    let lines = Mutex<[String]>([])
}

@Suite("The bridge over real file descriptors: poll, the event timer, stopping")
struct RadioBridgeTests {
    let clock = MonotonicClock()

    @Test("in the connection-event model an ACL packet reaches btvirt at the link's next event, not before")
    func heldUntilTheEvent() throws {
        let harness = try BridgeHarness(RadioModel(timing: .connectionEvents(packetsPerEvent: 6, buffers: 12)))
        let start = clock.now()
        try harness.controllerEnd.writeAll(Events.connectionComplete(handle: 0x40, interval: 16).bytes)  // 20 ms
        #expect(BridgeHarness.read(harness.hostEnd) == Events.connectionComplete(handle: 0x40, interval: 16).bytes)
        let seen = clock.now()
        try harness.hostEnd.writeAll(Events.acl(handle: 0x40, marker: 7).bytes)
        let sent = clock.now()
        let arrived = BridgeHarness.read(harness.controllerEnd)
        let at = clock.now()
        #expect(arrived == Events.acl(handle: 0x40, marker: 7).bytes)
        // The anchor lies between the event's write and its arrival at the host: the event comes 20 ms after it.
        let earliest = start.advanced(by: 20_000_000), latest = seen.advanced(by: 20_000_000 + 10_000_000)
        #expect(sent < earliest, "the test wrote its packet too late to expect the first event (machine too loaded?)")
        #expect(at >= earliest && at <= latest, "arrived \(Double(start.distance(to: at)) / 1e6) ms after the connection, expected 20 ms")
        let core = try harness.stop().get()
        #expect(core.scheduler.statistics.released == 1)
        #expect(harness.log.lines.withLock { $0 } == ["link 0x0040 connected, interval 20 ms (16 × 1.25 ms)"])
    }

    @Test("in the immediate model packets and events pass at once, unchanged")
    func immediate() throws {
        let harness = try BridgeHarness(RadioModel(timing: .immediate))
        try harness.controllerEnd.writeAll(Events.connectionComplete(handle: 0x40, interval: 16).bytes)
        #expect(BridgeHarness.read(harness.hostEnd) != nil)
        try harness.controllerEnd.writeAll(Events.leReadBufferSizeComplete(count: 1).bytes)
        #expect(BridgeHarness.read(harness.hostEnd) == Events.leReadBufferSizeComplete(count: 1).bytes)
        let sent = clock.now()
        try harness.hostEnd.writeAll(Events.acl(handle: 0x40, marker: 3).bytes)
        #expect(BridgeHarness.read(harness.controllerEnd) == Events.acl(handle: 0x40, marker: 3).bytes)
        #expect(sent.distance(to: clock.now()) < 15_000_000, "immediate forwarding took over 15 ms")
        let core = try harness.stop().get()
        #expect(core.scheduler.statistics.passedAtOnce == 1)
    }

    @Test("btvirt's side closing ends the bridge with an error that names it")
    func controllerCloses() throws {
        let harness = try BridgeHarness(RadioModel(timing: .immediate))
        harness.controllerEnd.close()
        #expect(harness.finished.wait(timeout: .now() + 5) == .success)
        let outcome = try #require(harness.outcome.withLock { $0 })
        #expect(throws: RadioError.self) { try outcome.get() }
        if case .failure(let error) = outcome {
            #expect(error.what == "btvirt's socket (test) closed")
        }
    }

    @Test("creating a controller: the vendor request goes out, the kernel's answer gives the index")
    func createController() throws {
        let (ours, kernel) = try BridgeHarness.pair(SOCK_SEQPACKET)
        try kernel.writeAll([0xff, 0x00, 0x03, 0x00])
        #expect(try VirtualHCI.create(on: ours, path: "/dev/vhci") == 3)
        #expect(BridgeHarness.read(kernel) == [0xff, 0x00])
        #expect(VirtualHCI.index(fromReply: [0xff, 0x01, 0x00, 0x00]) == nil)
        try kernel.writeAll([0x04, 0x0e])
        #expect { try VirtualHCI.create(on: ours, path: "/dev/vhci") } throws: { error in
            "\(error)".contains("/dev/vhci answered the request to create a controller with [04 0e]")
        }
    }
}
