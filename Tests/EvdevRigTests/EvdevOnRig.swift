import Evdev
import Foundation
import HILTestSupport
import InputCodes
import Synchronization
import Testing

/// uinput → kernel → evdev for real. Enabled only inside a rig (the vm guest here); `InRigSuitesOnRig` runs it
/// there from the host, so `swift test` exercises it everywhere.
@Suite(
    "uinput to evdev in a real kernel (EvdevOnRig)", .serialized, .tags(.rig),
    .enabled(if: RigGuest.isInsideRig, "needs /dev/uinput: runs inside the rig via InRigSuitesOnRig"))
struct EvdevOnRig {
    /// A fresh device with a name no other test or run uses, and its node. The device goes away when the object
    /// is released, which may be right after its last use: tests keep it with `withExtendedLifetime`.
    static func makeDevice(_ label: String) async throws -> (device: UinputDevice, devnode: String) {
        let name = "hil-evdev \(label) \(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let device = try UinputDevice(name: name)
        let devnode = try await EvdevReader.waitForDevice(named: name, timeout: .seconds(5))
        return (device, devnode)
    }

    /// Reads frames until `count` arrived, or a read waits longer than `timeout`.
    static func read(_ reader: EvdevReader, count: Int, timeout: Duration = .seconds(2)) throws -> [EvdevFrame] {
        var frames: [EvdevFrame] = []
        while frames.count < count, let frame = try reader.nextFrame(timeout: timeout) {
            frames.append(frame)
        }
        return frames
    }

    /// `time` with its microseconds kept and the rest dropped, as the kernel's timeval stamps are.
    static func microseconds(_ time: MonotonicTime) -> MonotonicTime {
        MonotonicTime(nanoseconds: time.nanoseconds / 1_000 * 1_000)
    }

    @Test("a new device is found by name under /sys/class/input; devnode and syspath agree with sysfs")
    func discovery() async throws {
        let (device, devnode) = try await Self.makeDevice("discovery")
        defer { withExtendedLifetime(device) {} }  // the device lives as long as this object
        #expect(device.devnode == devnode, "libevdev says \(device.devnode ?? "nil"), sysfs says \(devnode)")
        let syspath = try #require(device.syspath)
        #expect(syspath.hasPrefix("/sys/devices/virtual/input/input"), "\(syspath)")
        let sysName = try String(contentsOfFile: "\(syspath)/name", encoding: .utf8)
        #expect(sysName == device.name + "\n")
        let ids = try ["bustype", "vendor", "product"].map {
            try String(contentsOfFile: "\(syspath)/id/\($0)", encoding: .utf8)
        }
        #expect(ids == ["0006\n", "7274\n", "0001\n"], "expected BUS_VIRTUAL, vendor 7274, product 0001")
        let node = URL(fileURLWithPath: devnode).lastPathComponent
        #expect(FileManager.default.fileExists(atPath: "\(syspath)/\(node)"), "\(syspath) has no \(node)")
        let reader = try EvdevReader(devnode: devnode)
        #expect(reader.name == device.name)
        #expect(reader.isGrabbed)
    }

    @Test("frames come back exactly, in order, stamped between the time before emit and emit's own times")
    func roundTrip() async throws {
        let (device, devnode) = try await Self.makeDevice("roundtrip")
        defer { withExtendedLifetime(device) {} }  // the device lives as long as this object
        let reader = try EvdevReader(devnode: devnode, grab: true)
        let expected: [InputFrame] = [
            InputFrame([InputEvent(.relX, 10), InputEvent(.relY, -5)]),
            InputFrame([.press(.keyRight)]),
            InputFrame([.release(.keyRight)]),
            InputFrame([.press(.btnLeft)]),
            InputFrame([.release(.btnLeft)]),
            InputFrame([InputEvent(.relWheel, -1), InputEvent(.relWheelHiRes, -120)]),
            InputFrame([InputEvent(.relHWheel, 1), InputEvent(.relHWheelHiRes, 120)]),
            InputFrame([.press(.keyLeftMeta), .press(.keyLeft)]),
            InputFrame([.release(.keyLeft), .release(.keyLeftMeta)]),
        ]
        let before = MonotonicTime.now()
        let emitted = try device.emit(expected)
        let after = MonotonicTime.now()
        #expect(emitted.count == expected.count)
        #expect(emitted == emitted.sorted() && emitted.allSatisfy { $0 >= before && $0 <= after })

        let frames = try Self.read(reader, count: expected.count)
        #expect(frames.map(\.frame) == expected, "expected (left) vs read (right)")
        #expect(try reader.nextFrame(timeout: .milliseconds(100)) == nil, "a frame nobody emitted arrived")

        for (index, frame) in frames.enumerated() where index < emitted.count {
            // The kernel stamps at SYN_REPORT, before write() returns; its stamp has whole microseconds only.
            let earliest = Self.microseconds(index == 0 ? before : emitted[index - 1])
            #expect(
                frame.time >= earliest && frame.time <= emitted[index],
                "frame \(index + 1) \(frame): stamp \(frame.time) outside [\(earliest), \(emitted[index])]")
        }
        let lags = zip(frames, emitted).map { ($1 - $0.time) }
        print("roundTrip: emit's time - kernel stamp: \(lags.map(formatMilliseconds).joined(separator: ", "))")
        #expect(lags.allSatisfy { $0 >= .zero && $0 < .milliseconds(50) }, "\(lags)")
    }

    @Test("heldKeys shows what is down after a press frame and nothing after the release, and steals no frames")
    func heldKeys() async throws {
        let (device, devnode) = try await Self.makeDevice("held")
        defer { withExtendedLifetime(device) {} }  // the device lives as long as this object
        let reader = try EvdevReader(devnode: devnode)
        #expect(try reader.heldKeys() == [])
        let presses = [InputFrame([.press(.keyLeftMeta), .press(.keyLeft)]), InputFrame([.press(.btnLeft)])]
        try device.emit(presses)
        // The kernel's state, right after emit and before any frame is read.
        let down = try reader.heldKeys()
        #expect(down == [.keyLeft, .keyLeftMeta, .btnLeft], "expected [KEY_LEFT, KEY_LEFTMETA, BTN_LEFT], got \(down)")
        // EVIOCGKEY on the reading descriptor would have flushed these key events from the reader's queue.
        let frames = try Self.read(reader, count: 2).map(\.frame)
        #expect(frames == presses, "expected (left) vs read (right) after heldKeys")
        let release = InputFrame([.release(.keyLeft), .release(.keyLeftMeta), .release(.btnLeft)])
        try device.emit([release])
        let up = try reader.heldKeys()
        #expect(up == [], "expected nothing held, got \(up)")
        #expect(try reader.nextFrame(timeout: .seconds(2))?.frame == release)
    }

    @Test("nextFrame with nothing to read returns nil after about the asked time")
    func frameTimeout() async throws {
        let (device, devnode) = try await Self.makeDevice("timeout")
        defer { withExtendedLifetime(device) {} }  // the device lives as long as this object
        let reader = try EvdevReader(devnode: devnode)
        for asked in [Duration.milliseconds(50), .milliseconds(300)] {
            let start = ContinuousClock.now
            let frame = try reader.nextFrame(timeout: asked)
            let elapsed = ContinuousClock.now - start
            #expect(frame == nil, "expected no frame, got \(String(describing: frame))")
            #expect(
                elapsed >= asked && elapsed < asked + .milliseconds(150),
                "asked for \(asked), returned after \(elapsed)")
        }
        let start = ContinuousClock.now
        #expect(try reader.nextFrame(timeout: .zero) == nil)
        #expect(ContinuousClock.now - start < .milliseconds(50))
    }

    @Test("a grabbing reader gets the frames; another reader gets none, and cannot grab too (EBUSY)")
    func grab() async throws {
        let (device, devnode) = try await Self.makeDevice("grab")
        defer { withExtendedLifetime(device) {} }  // the device lives as long as this object
        let bystander = try EvdevReader(devnode: devnode, grab: false)
        let owner = try EvdevReader(devnode: devnode, grab: true)
        let thrown = #expect(throws: EvdevError.self) { try EvdevReader(devnode: devnode, grab: true) }
        #expect(thrown?.code == .busy, "\(String(describing: thrown))")
        #expect(thrown?.description.contains("another process grabbed \(devnode) (EVIOCGRAB)") == true)

        let frame = InputFrame([InputEvent(.relX, 3)])
        try device.emit([frame])
        #expect(try owner.nextFrame(timeout: .seconds(2))?.frame == frame)
        #expect(try bystander.nextFrame(timeout: .milliseconds(100)) == nil, "the grab let an event through")
    }

    @Test("the kernel passes on only changes: a REL 0, a second press and an empty frame never arrive")
    func kernelFiltering() async throws {
        let (device, devnode) = try await Self.makeDevice("filter")
        defer { withExtendedLifetime(device) {} }  // the device lives as long as this object
        let reader = try EvdevReader(devnode: devnode)
        let emitted = try device.emit([
            InputFrame([InputEvent(.relX, 0)]),
            InputFrame([.press(.keyA)]),
            InputFrame([.press(.keyA)]),
            InputFrame([]),
            InputFrame([InputEvent(.relX, 0), InputEvent(.relY, 4)]),
            InputFrame([.release(.keyA)]),
        ])
        #expect(emitted.count == 6, "one time per frame written")
        let frames = try Self.read(reader, count: 10, timeout: .milliseconds(200)).map(\.frame)
        let expected = [InputFrame([.press(.keyA)]), InputFrame([InputEvent(.relY, 4)]), InputFrame([.release(.keyA)])]
        #expect(frames == expected, "expected (left) vs read (right)")
        #expect(try device.emit([]) == [])
    }

    @Test("emit refuses an event the device lacks, or a SYN inside a frame, and writes nothing")
    func emitRefuses() async throws {
        let (device, devnode) = try await Self.makeDevice("refuse")
        defer { withExtendedLifetime(device) {} }  // the device lives as long as this object
        let reader = try EvdevReader(devnode: devnode)
        let unknown = EventCode(.key, 0x1ff)
        let lacking = #expect(throws: EvdevError.self) {
            try device.emit([InputFrame([InputEvent(.relX, 1)]), InputFrame([.press(unknown)])])
        }
        #expect(lacking?.code == .invalidArgument)
        #expect(
            lacking?.what == "cannot emit EV_KEY:0x1ff 1 (frame 2 of 2) on uinput device \"\(device.name)\": "
                + "the device does not have EV_KEY:0x1ff",
            "\(String(describing: lacking))")
        let syn = #expect(throws: EvdevError.self) { try device.emit([InputFrame([InputEvent(.synReport, 0)])]) }
        #expect(syn?.what.contains("emit writes the SYN_REPORT after each frame itself") == true)
        #expect(try reader.nextFrame(timeout: .milliseconds(100)) == nil, "a refused batch was partly written")
    }

    @Test("SYN_DROPPED throws .dropped (inconclusive), then the reader goes on with the next whole frame")
    func dropped() async throws {
        let (device, devnode) = try await Self.makeDevice("dropped")
        defer { withExtendedLifetime(device) {} }  // the device lives as long as this object
        let reader = try EvdevReader(devnode: devnode)
        // The kernel queues 128 events for this device (14 events a packet × 8, rounded up to a power of two):
        // 300 frames of 2 events unread overflow it.
        try device.emit(Array(repeating: InputFrame([InputEvent(.relX, 1)]), count: 300))
        let thrown = #expect(throws: EvdevError.self) { try reader.nextFrame(timeout: .seconds(1)) }
        let error = try #require(thrown)
        #expect(error.code == .dropped, "expected dropped, got \(error)")
        #expect(error.description.contains("SYN_DROPPED on \(devnode)"), "\(error)")
        #expect(error.description.contains("the scenario is inconclusive, not passed"), "\(error)")
        // Whatever survived is whole frames of what was sent (libevdev drops the queue when it resyncs).
        let leftovers = try Self.read(reader, count: 300, timeout: .milliseconds(100))
        #expect(leftovers.allSatisfy { $0.frame == InputFrame([InputEvent(.relX, 1)]) }, "\(leftovers)")
        let next = InputFrame([InputEvent(.relY, 7)])
        try device.emit([next])
        #expect(try reader.nextFrame(timeout: .seconds(2))?.frame == next)
        print("dropped: \(error)\n  frames left after the resync: \(leftovers.count)")
    }

    @Test("releasing the device removes its node, and a reader of it gets .noDevice")
    func removal() async throws {
        var made: (device: UinputDevice, devnode: String)? = try await Self.makeDevice("removal")
        let devnode = try #require(made?.devnode)
        let name = try #require(made?.device.name)
        let reader = try EvdevReader(devnode: devnode)
        made = nil
        #expect(!FileManager.default.fileExists(atPath: devnode), "\(devnode) is still there")
        let thrown = #expect(throws: EvdevError.self) { try reader.nextFrame(timeout: .seconds(1)) }
        #expect(thrown?.code == .noDevice, "\(String(describing: thrown))")
        #expect(thrown?.description.contains("was removed") == true, "\(String(describing: thrown))")
        await #expect(throws: EvdevError.self) { try await EvdevReader.waitForDevice(named: name, timeout: .milliseconds(20)) }
    }

    @Test("200 frames at 120 Hz reach a reader thread whole and in order; emit → evdev latency")
    func latency() async throws {
        let (device, devnode) = try await Self.makeDevice("latency")
        defer { withExtendedLifetime(device) {} }  // the device lives as long as this object
        let count = 200
        let reading = ReaderThread(devnode: devnode, count: count)
        try reading.waitUntilReady()

        let period: UInt64 = 1_000_000_000 / 120
        var sent: [(before: MonotonicTime, after: MonotonicTime)] = []
        let start = MonotonicTime.now()
        for index in 0..<count {
            sleep(until: MonotonicTime(nanoseconds: start.nanoseconds + UInt64(index) * period))
            let before = MonotonicTime.now()
            let after = try device.emit([Self.latencyFrame(index)])[0]
            sent.append((before, after))
        }
        let received = try reading.result(timeout: .seconds(30))

        let expected = (0..<count).map(Self.latencyFrame)
        #expect(received.map(\.frame.frame) == expected, "expected (left) vs read (right)")
        guard received.count == count else { return }
        var stampLag: [Duration] = []  // kernel stamp - time before emit
        var returnLag: [Duration] = []  // emit's returned time - kernel stamp
        var delivery: [Duration] = []  // reader thread has the frame - emit's returned time
        var total: [Duration] = []  // reader thread has the frame - time before emit
        for (index, (frame, readAt)) in received.enumerated() {
            let (before, after) = sent[index]
            #expect(
                frame.time >= Self.microseconds(before) && frame.time <= after,
                "frame \(index + 1): stamp \(frame.time) outside [\(before), \(after)]")
            stampLag.append(frame.time - before)
            returnLag.append(after - frame.time)
            delivery.append(readAt - after)
            total.append(readAt - before)
        }
        let summary = [
            "emit start → kernel stamp: \(Stats(stampLag))",
            "kernel stamp → emit returns: \(Stats(returnLag))",
            "emit returns → reader thread has the frame: \(Stats(delivery))",
            "emit start → reader thread has the frame: \(Stats(total))",
        ]
        print("latency over \(count) frames at 120 Hz:\n  " + summary.joined(separator: "\n  "))
        // Generous bounds for an emulated CPU (TCG); a real box is far below them.
        #expect(Stats(delivery).p50 < .milliseconds(10), "\(summary)")
        #expect(Stats(delivery).max < .milliseconds(250), "\(summary)")
    }

    static func latencyFrame(_ index: Int) -> InputFrame {
        InputFrame([InputEvent(.relX, Int32(index + 1)), InputEvent(.relY, -Int32(index + 1))])
    }

    @Test("an unprivileged process is refused /dev/uinput with the R10 message (EvdevUnprivilegedOnRig as nobody)")
    func unprivileged() async throws {
        try #require(getuid() == 0, "this test drops root itself; it must start as root")
        let (status, output) = try await runCapturing("/usr/bin/setpriv", [
            "--reuid=65534", "--regid=65534", "--clear-groups",
            RigGuest.testBundle, "--testing-library", "swift-testing", "--filter", "EvdevUnprivilegedOnRig/",
        ])
        let (passed, summary) = testRunPassed(status, output)
        #expect(
            passed,
            "as uid 65534: exit status \(status), summary: \(summary)\n\(output.suffix(4000))")
    }
}

/// Sleeps until `time` on CLOCK_MONOTONIC (pacing a load, not waiting for a state).
private func sleep(until time: MonotonicTime) {
    var target = timespec(tv_sec: Int(time.nanoseconds / 1_000_000_000), tv_nsec: Int(time.nanoseconds % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
}

/// count, p50, p99 and max of some durations, in milliseconds.
struct Stats: CustomStringConvertible {
    let sorted: [Duration]
    init(_ values: [Duration]) { sorted = values.sorted() }
    var p50: Duration { sorted[sorted.count / 2] }
    var p99: Duration { sorted[Int(Double(sorted.count - 1) * 0.99)] }
    var max: Duration { sorted.last! }
    var description: String {
        "n=\(sorted.count) p50 \(formatMilliseconds(p50)), p99 \(formatMilliseconds(p99)), "
            + "max \(formatMilliseconds(max)), min \(formatMilliseconds(sorted.first!))"
    }
}

/// `0.123 ms`
func formatMilliseconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    return String(format: "%.3f ms", value)
}

/// A thread that opens an evdev node (grabbing it), reads `count` frames and notes when each arrived.
/// The reader lives and dies on that thread: it is never shared.
final class ReaderThread: Sendable {
    private struct State {
        var frames: [(frame: EvdevFrame, readAt: MonotonicTime)] = []
        var failure: String?
    }
    private let state = Mutex(State())
    private let readySignal = DispatchSemaphore(value: 0)
    private let doneSignal = DispatchSemaphore(value: 0)

    init(devnode: String, count: Int) {
        Thread.detachNewThread { [self] in
            defer { doneSignal.signal() }
            do {
                let reader = try EvdevReader(devnode: devnode)
                readySignal.signal()
                for _ in 0..<count {
                    guard let frame = try reader.nextFrame(timeout: .seconds(5)) else {
                        state.withLock { $0.failure = "no frame within 5 s" }
                        return
                    }
                    let readAt = MonotonicTime.now()
                    state.withLock { $0.frames.append((frame, readAt)) }
                }
            } catch {
                state.withLock { $0.failure = "\(error)" }
                readySignal.signal()
            }
        }
    }

    func waitUntilReady() throws {
        guard readySignal.wait(timeout: .now() + 5) == .success else { throw RigGuestError("reader not ready in 5 s") }
        if let failure = state.withLock({ $0.failure }) { throw RigGuestError("reader thread: \(failure)") }
    }

    func result(timeout: Duration) throws -> [(frame: EvdevFrame, readAt: MonotonicTime)] {
        guard doneSignal.wait(timeout: .now() + .seconds(Int(timeout.components.seconds))) == .success else {
            throw RigGuestError("reader thread still reading after \(timeout)")
        }
        let (frames, failure) = state.withLock { ($0.frames, $0.failure) }
        if let failure { throw RigGuestError("reader thread after \(frames.count) frames: \(failure)") }
        return frames
    }
}
