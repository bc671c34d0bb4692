import CEvdev
import Glibc
import System
package import InputCodes

/// Reads frames from an evdev node (`/dev/input/eventN`) through libevdev, with CLOCK_MONOTONIC timestamps:
/// what the verifier uses to see what the peripheral injected.
///
/// Opened with `grab: true` (the default) it takes the device for itself (EVIOCGRAB), so test events never
/// reach a desktop or another reader while a scenario runs.
///
/// Ownership: one owner, one thread at a time. The type is deliberately not `Sendable`: it holds the
/// descriptor, the libevdev handle and a partly read frame, which it alone frees (ungrab, free, close on
/// deinit). Create it on the thread or in the actor that reads.
package final class EvdevReader {
    /// The node this reader reads: `/dev/input/event5`.
    package let devnode: String
    /// True when this reader holds the device's grab (until it is released).
    package let isGrabbed: Bool

    private let descriptor: Int32
    private let device: OpaquePointer
    /// Events of a frame whose `SYN_REPORT` has not been read yet.
    private var pending: [InputEvent] = []

    /// Finds the evdev node of the input device named `name` in /sys/class/input once its /dev/input node exists (no
    /// udev needed: devtmpfs makes the node), woken by the nodes made in /dev/input (`InputDeviceDirectory`).
    ///
    /// - Parameters:
    ///   - name: the device name, as `UinputDevice(name:)` gave it.
    ///   - timeout: how long to look.
    /// - Returns: the node's path, `/dev/input/eventN`.
    /// - Throws: `EvdevError` `.timeout` naming the devices that are present, or `.ambiguous` when more than
    ///   one device has that name; `CancellationError`.
    package static func waitForDevice(named name: String, timeout: Duration) async throws -> String {
        try await InputDeviceDirectory().waitForDevice(named: name, timeout: timeout)
    }

    /// Opens `devnode` for reading and selects CLOCK_MONOTONIC for its timestamps before anything is read.
    ///
    /// - Parameters:
    ///   - devnode: the evdev node, `/dev/input/eventN`.
    ///   - grab: take the device for this reader alone (EVIOCGRAB) until it is released.
    /// - Throws: `EvdevError`: `.permissionDenied` (with what access the verifier needs), `.notFound`,
    ///   `.noDevice`, `.busy` (someone else grabbed it), or another code with the errno.
    package init(devnode: String, grab: Bool = true) throws(EvdevError) {
        let descriptor: Int32
        do {
            descriptor = try system_open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            throw EvdevError.evdev("open", path: devnode, errno: error)
        }
        // Select the clock at once, with the bare ioctl: the kernel flushes a client's queue and puts a
        // SYN_DROPPED in it when the clock changes while events are queued, so events arriving during
        // libevdev_new_from_fd would otherwise turn into a false "dropped".
        var clock = Int32(CLOCK_MONOTONIC)
        do {
            _ = try system_ioctl(descriptor, IOControl.evdevSetClockID, &clock)
        } catch {
            system_close(descriptor)
            throw EvdevError.evdev("select CLOCK_MONOTONIC (EVIOCSCLOCKID) on", path: devnode, errno: error)
        }
        var device: OpaquePointer?
        let rc = libevdev_new_from_fd(descriptor, &device)
        guard let device, Errno(libevdevResult: rc) == nil else {
            system_close(descriptor)
            throw EvdevError.evdev(
                "set up libevdev on", path: devnode, errno: Errno(libevdevResult: rc) ?? Errno(rawValue: EIO))
        }
        // libevdev's own call, before its first read; the same clock, so the kernel has nothing to flush.
        if let error = Errno(libevdevResult: libevdev_set_clock_id(device, Int32(CLOCK_MONOTONIC))) {
            libevdev_free(device)
            system_close(descriptor)
            throw EvdevError.evdev("select CLOCK_MONOTONIC on", path: devnode, errno: error)
        }
        if grab, let error = Errno(libevdevResult: libevdev_grab(device, LIBEVDEV_GRAB)) {
            libevdev_free(device)
            system_close(descriptor)
            throw EvdevError.evdev("grab (EVIOCGRAB)", path: devnode, errno: error)
        }
        self.devnode = devnode
        self.descriptor = descriptor
        self.device = device
        isGrabbed = grab
    }

    deinit {
        if isGrabbed { _ = libevdev_grab(device, LIBEVDEV_UNGRAB) }
        libevdev_free(device)
        system_close(descriptor)
    }

    /// The device's name as the kernel reports it.
    package var name: String {
        libevdev_get_name(device).map { String(cString: $0) } ?? ""
    }

    /// Returns the next complete frame: its events up to (not including) `SYN_REPORT`, stamped with the
    /// `SYN_REPORT`'s CLOCK_MONOTONIC time. Waits with poll(2) for at most `timeout`.
    ///
    /// Events of types `EventType` has no case for (`EV_LED`, `EV_SND`, `EV_REP`, …) are left out of the
    /// frame; a `UinputDevice` never produces them.
    ///
    /// - Parameter timeout: the longest wait for the frame to complete.
    /// - Returns: the frame, or nil when none completed in time (a partly read frame is kept for the next call).
    /// - Throws: `EvdevError` `.dropped` when the kernel reports `SYN_DROPPED`: the reader fell behind and
    ///   events were lost, so whatever the caller is checking is inconclusive — never a pass. The partial frame
    ///   and libevdev's resync events are discarded and the reader stays usable: the next call returns the
    ///   next frame that arrives whole. `.noDevice` when the device was removed; another code with the errno.
    package func nextFrame(timeout: Duration) throws(EvdevError) -> EvdevFrame? {
        let deadline = Deadline(after: timeout)
        var event = input_event()
        var hungUp = false
        while true {
            let rc = libevdev_next_event(device, LIBEVDEV_READ_FLAG_NORMAL.rawValue, &event)
            if rc == Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue) {
                if event.type == UInt16(EV_SYN) && event.code == UInt16(SYN_REPORT) {
                    let frame = InputFrame(pending)
                    pending = []
                    return EvdevFrame(frame: frame, time: Self.time(of: event))
                }
                if let type = EventType(rawValue: event.type) {
                    pending.append(InputEvent(EventCode(type, event.code), event.value))
                }
                continue
            }
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                throw droppedAfterResync(at: Self.time(of: event))
            }
            let error = Errno(libevdevResult: rc) ?? Errno(rawValue: EIO)
            if error == .interrupted { continue }
            if error != .wouldBlock { throw EvdevError.evdev("read", path: devnode, errno: error) }
            // Nothing queued.
            if hungUp { throw EvdevError.evdev("read", path: devnode, errno: Errno(rawValue: ENODEV)) }
            if deadline.hasPassed { return nil }
            let revents: Int16
            do {
                revents = try system_poll(descriptor, events: Int16(POLLIN), milliseconds: deadline.pollMilliseconds)
            } catch {
                throw EvdevError.evdev("wait for events (poll) on", path: devnode, errno: error)
            }
            // The device went away: the read reports ENODEV, or else the check above does.
            hungUp = revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
        }
    }

    private static func time(of event: input_event) -> MonotonicTime {
        MonotonicTime(seconds: Int(event.time.tv_sec), microseconds: Int(event.time.tv_usec))
    }

    /// After SYN_DROPPED: drains libevdev's sync events (the device state it re-read), forgets the partial frame
    /// and describes the loss. The caller sees an error, never a quietly repaired stream.
    private func droppedAfterResync(at time: MonotonicTime) -> EvdevError {
        var event = input_event()
        var resynced = 0
        while libevdev_next_event(device, LIBEVDEV_READ_FLAG_SYNC.rawValue, &event)
            == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)
        {
            resynced += 1
        }
        let lost = pending.count
        pending = []
        return EvdevError(
            .dropped, path: devnode,
            what: "SYN_DROPPED on \(devnode) at \(time): the reader fell behind and the kernel discarded events "
                + "(\(lost) events of the current frame forgotten, \(resynced) state changes resynced by libevdev)",
            hint: "the scenario is inconclusive, not passed: read more often (the kernel queues only a few dozen "
                + "frames per reader) and run it again")
    }

    /// The keys and buttons that are down now, in code order, as the kernel sees them: the EVIOCGKEY ioctl, not
    /// libevdev's cached state (which only follows the events read so far).
    ///
    /// The ioctl goes through a second, short-lived descriptor on `devnode`. On the reading descriptor it would
    /// make the kernel flush the key events still queued for this reader (evdev keeps a client's queue
    /// consistent with the state it just reported), and `nextFrame` would lose them.
    ///
    /// - Throws: `EvdevError` with the errno when the node cannot be opened or the ioctl fails (`.notFound` or
    ///   `.noDevice` once the device is gone).
    package func heldKeys() throws(EvdevError) -> [EventCode] {
        let stateDescriptor: Int32
        do {
            stateDescriptor = try system_open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            throw EvdevError.evdev("open (for its key state)", path: devnode, errno: error)
        }
        defer { system_close(stateDescriptor) }
        var words = [UInt](repeating: 0, count: Self.keyStateWordCount)
        let request = IOControl.evdevGetKeyState(byteCount: words.count * MemoryLayout<UInt>.size)
        let outcome = words.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) -> Int32 in try system_ioctl(stateDescriptor, request, buffer.baseAddress!) }
        }
        if case .failure(let error) = outcome {
            throw EvdevError.evdev("read the key state (EVIOCGKEY) of", path: devnode, errno: error)
        }
        return Self.keys(inBitmap: words)
    }

    /// The words of the kernel's key bitmap: KEY_CNT (0x300) bits.
    static let keyStateWordCount = (Int(KEY_MAX) + 1 + UInt.bitWidth - 1) / UInt.bitWidth

    /// The key codes whose bits are set in a kernel bitmap. The kernel's bitmap is an array of unsigned longs:
    /// bit n is bit n % 64 of word n / 64, whatever the byte order, so it is read as words rather than bytes.
    static func keys(inBitmap words: [UInt]) -> [EventCode] {
        var held: [EventCode] = []
        for (index, word) in words.enumerated() where word != 0 {
            for bit in 0..<UInt.bitWidth where word & (1 << UInt(bit)) != 0 {
                held.append(EventCode(.key, UInt16(index * UInt.bitWidth + bit)))
            }
        }
        return held
    }
}
