import CEvdev
import Glibc
import System
package import InputCodes

/// A virtual input device made through /dev/uinput: what the peripheral injects cursor, click, scroll, key and
/// media events into, and what the verifier reads back at `devnode`.
///
/// It is built from a libevdev "template" device with `libevdev_uinput_create_from_device`, on a descriptor
/// this type opens itself (so errors name the path). It has relative axes (`REL_X`, `REL_Y`, `REL_WHEEL`,
/// `REL_HWHEEL` and their `_HI_RES` forms), `BTN_LEFT`/`BTN_RIGHT`/`BTN_MIDDLE`, and every key in
/// `EventCode.allKnown`: see `supportedCodes`.
///
/// Ownership: one owner, one thread at a time. The type is deliberately not `Sendable`: it holds the uinput
/// descriptor and two libevdev handles, which it alone frees. Keep it inside the actor or thread that emits.
///
/// Lifetime: the device exists exactly as long as this object, and Swift may release an object right after its
/// last use — keep a reference (or `withExtendedLifetime`) while readers need the device. On release it is
/// destroyed: its node disappears and its readers get `EvdevError.Code.noDevice`.
package final class UinputDevice {
    /// The vendor id the device reports (bus `BUS_VIRTUAL`): "rt".
    package static let vendorID: UInt16 = 0x7274
    /// The product id the device reports.
    package static let productID: UInt16 = 0x0001

    /// Every code the device can emit; `emit` refuses any other.
    package static let supportedCodes: Set<EventCode> = {
        let axes: [EventCode] = [.relX, .relY, .relWheel, .relHWheel, .relWheelHiRes, .relHWheelHiRes]
        let buttons: [EventCode] = [.btnLeft, .btnRight, .btnMiddle]
        let known = EventCode.allKnown.filter { $0.type == .key || $0.type == .rel }
        return Set(axes + buttons + known)
    }()

    /// The name the kernel shows (`/sys/class/input/eventN/device/name`).
    package let name: String
    /// The uinput node the device was made through.
    package let uinputPath: String

    private let descriptor: Int32
    /// The template: owned here, kept for the device's lifetime.
    private let template: OpaquePointer
    private let device: OpaquePointer

    /// Creates the device.
    ///
    /// - Parameters:
    ///   - name: the device name, unique among input devices so a reader can find it (at most 79 bytes).
    ///   - uinputPath: the uinput node.
    /// - Throws: `EvdevError`: `.permissionDenied` (with the R10 hint: the peripheral's write access to
    ///   /dev/uinput), `.notFound` (no uinput module), `.invalidArgument` (a name uinput cannot take), or another
    ///   code with the errno of the failing call.
    package init(name: String, uinputPath: String = "/dev/uinput") throws(EvdevError) {
        let limit = Int(UINPUT_MAX_NAME_SIZE)
        guard !name.isEmpty, name.utf8.count < limit, !name.utf8.contains(0) else {
            throw EvdevError(
                .invalidArgument, path: uinputPath,
                what: "cannot create uinput device \"\(name)\": a name must have 1 to \(limit - 1) bytes "
                    + "and no NUL (it has \(name.utf8.count))",
                hint: "choose a shorter name; readers find the device by it")
        }
        guard let template = libevdev_new() else {
            throw EvdevError(.io, errno: ENOMEM, what: "cannot create uinput device \"\(name)\": out of memory")
        }
        libevdev_set_name(template, name)
        libevdev_set_id_bustype(template, Int32(BUS_VIRTUAL))
        libevdev_set_id_vendor(template, Int32(Self.vendorID))
        libevdev_set_id_product(template, Int32(Self.productID))
        libevdev_enable_event_type(template, UInt32(EV_SYN))
        libevdev_enable_event_type(template, UInt32(EV_REL))
        libevdev_enable_event_type(template, UInt32(EV_KEY))
        for code in Self.supportedCodes.sorted(by: { ($0.type.rawValue, $0.code) < ($1.type.rawValue, $1.code) }) {
            // Only fails for a type the template lacks or an out-of-range code; the table rules both out.
            let rc = libevdev_enable_event_code(template, UInt32(code.type.rawValue), UInt32(code.code), nil)
            precondition(rc == 0, "libevdev refused to enable \(code)")
        }

        let descriptor: Int32
        do {
            descriptor = try system_open(uinputPath, O_RDWR | O_CLOEXEC)
        } catch {
            libevdev_free(template)
            throw EvdevError.uinput("open", path: uinputPath, errno: error)
        }
        var device: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(template, descriptor, &device)
        guard let device, Errno(libevdevResult: rc) == nil else {
            system_close(descriptor)
            libevdev_free(template)
            let error = Errno(libevdevResult: rc) ?? Errno(rawValue: EIO)
            throw EvdevError.uinput("create uinput device \"\(name)\" through", path: uinputPath, errno: error)
        }
        self.name = name
        self.uinputPath = uinputPath
        self.descriptor = descriptor
        self.template = template
        self.device = device
    }

    deinit {
        // UI_DEV_DESTROY; the descriptor is ours (not LIBEVDEV_UINPUT_OPEN_MANAGED), so we close it.
        libevdev_uinput_destroy(device)
        libevdev_free(template)
        system_close(descriptor)
    }

    /// The evdev node readers open: `/dev/input/event5` (found through sysfs, no udev needed); nil if the
    /// kernel does not say.
    package var devnode: String? {
        libevdev_uinput_get_devnode(device).map { String(cString: $0) }
    }

    /// The device's sysfs directory: `/sys/devices/virtual/input/input7`; nil if the kernel does not say.
    package var syspath: String? {
        libevdev_uinput_get_syspath(device).map { String(cString: $0) }
    }

    /// Writes each frame's events followed by a `SYN_REPORT`, and returns the CLOCK_MONOTONIC time taken right
    /// after each `SYN_REPORT` was written (one per frame). Empty input writes nothing.
    ///
    /// The kernel stamps a frame when its `SYN_REPORT` arrives, so a reader's `EvdevFrame.time` is at or just
    /// before the time returned here. The input core also filters what it passes on: a `REL_*` event with value
    /// 0, a key event that does not change the key's state (a second press; autorepeat value 2 passes), and
    /// so a frame left with nothing in it, never reach a reader.
    ///
    /// - Parameter frames: the frames to inject; `SYN_*` events inside a frame are refused (the frame boundary
    ///   is written here), as are codes outside `supportedCodes` (the kernel would drop them silently).
    /// - Returns: one CLOCK_MONOTONIC time per frame.
    /// - Throws: `EvdevError` `.invalidArgument` before anything is written when a frame has an event the
    ///   device cannot emit; else the errno of a failed write (frames before the one named were delivered).
    @discardableResult
    package func emit(_ frames: [InputFrame]) throws(EvdevError) -> [MonotonicTime] {
        for (index, frame) in frames.enumerated() {
            for event in frame.events where event.code.type == .syn || !Self.supportedCodes.contains(event.code) {
                throw EvdevError(
                    .invalidArgument, path: devnode,
                    what: "cannot emit \(event) (frame \(index + 1) of \(frames.count)) on uinput device "
                        + "\"\(name)\": "
                        + (event.code.type == .syn
                            ? "emit writes the SYN_REPORT after each frame itself"
                            : "the device does not have \(event.code)"),
                    hint: event.code.type == .syn
                        ? "split the events into frames instead" : "it emits only UinputDevice.supportedCodes")
            }
        }
        var times: [MonotonicTime] = []
        times.reserveCapacity(frames.count)
        var batch: [input_event] = []
        for (index, frame) in frames.enumerated() {
            batch.removeAll(keepingCapacity: true)
            for event in frame.events { batch.append(Self.inputEvent(event.code, event.value)) }
            batch.append(Self.inputEvent(.synReport, 0))
            try write(batch, of: frame, index: index, count: frames.count)
            times.append(.now())
        }
        return times
    }

    private static func inputEvent(_ code: EventCode, _ value: Int32) -> input_event {
        var event = input_event()
        event.type = code.type.rawValue
        event.code = code.code
        event.value = value
        return event
    }

    /// One frame (its events and the SYN_REPORT) in one write(2) on the uinput descriptor, which takes whole
    /// `input_event`s: one system call a frame rather than libevdev's one an event. Retried on EINTR; a short
    /// write goes on from the first event not taken.
    private func write(_ events: [input_event], of frame: InputFrame, index: Int, count: Int) throws(EvdevError) {
        let size = MemoryLayout<input_event>.stride
        var written = 0
        while written < events.count {
            let rc = events.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + written * size, (events.count - written) * size)
            }
            if rc > 0 {
                written += rc / size
                continue
            }
            let error = Errno(rawValue: rc == 0 ? EIO : errno)
            if error == .interrupted { continue }
            let event = written < frame.events.count ? "\(frame.events[written].code) \(frame.events[written].value)" : "SYN_REPORT 0"
            var failure = EvdevError.failed(
                "write \(event) (frame \(index + 1) of \(count)) to uinput device \"\(name)\" at",
                path: devnode ?? uinputPath, errno: error)
            failure.hint = index == 0 ? "nothing of this batch reached readers"
                : "frames 1 to \(index) of this batch were delivered"
            throw failure
        }
    }
}
