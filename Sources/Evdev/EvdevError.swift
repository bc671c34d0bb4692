import Glibc
import System

/// Why a uinput device could not be created or written, or an evdev node could not be found, opened or read —
/// with the errno when there is one, the device path, and what to do about it.
///
/// `description` is `what`, then `  → hint` on its own line (`ExplainedError`), e.g.
/// `cannot open /dev/uinput: Permission denied` and `  → the peripheral needs write access to /dev/uinput …`.
package struct EvdevError: ExplainedError, Sendable, Hashable {
    /// What kind of failure this is; callers branch on it, people read `what` and `hint`.
    package enum Code: String, Sendable, Hashable {
        /// EACCES or EPERM: no access to /dev/uinput or to an evdev node.
        case permissionDenied
        /// ENOENT: the path does not exist (no uinput module, a device node that went away).
        case notFound
        /// ENODEV or ENXIO: the device was removed, or the driver behind the node is missing.
        case noDevice
        /// EBUSY: another process grabbed the device (EVIOCGRAB).
        case busy
        /// Nothing turned up in time (`EvdevReader.waitForDevice`).
        case timeout
        /// More than one input device has the name that was looked for.
        case ambiguous
        /// SYN_DROPPED: the reader fell behind and the kernel discarded events. A scenario that sees this is
        /// inconclusive, never passed.
        case dropped
        /// A request the device cannot carry out: a name uinput cannot take, an event code the device does not
        /// have (EINVAL from the kernel lands here too).
        case invalidArgument
        /// Any other failure of a system call or libevdev.
        case io
    }

    package var code: Code
    /// The errno of the failed call, when a call failed.
    package var errno: Int32?
    /// The file involved: `/dev/uinput`, `/dev/input/event3`.
    package var path: String?
    /// What went wrong: `cannot open /dev/uinput: Permission denied`.
    package var what: String
    /// The next step for the person reading it, if there is one.
    package var hint: String?

    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - path: the file involved, if any.
    ///   - errno: the errno of the failed call, if any.
    ///   - what: what went wrong, naming the thing.
    ///   - hint: what to do about it.
    package init(_ code: Code, path: String? = nil, errno: Int32? = nil, what: String, hint: String? = nil) {
        self.code = code
        self.path = path
        self.errno = errno
        self.what = what
        self.hint = hint
    }
}

extension EvdevError {
    /// The code for an errno value.
    static func code(for errno: Errno) -> Code {
        switch errno {
        case .permissionDenied, .notPermitted: .permissionDenied
        case .noSuchFileOrDirectory: .notFound
        case .noSuchDevice, .noSuchDeviceOrAddress: .noDevice
        case .busy: .busy
        case .invalidArgument: .invalidArgument
        case .timedOut: .timeout
        default: .io
        }
    }

    /// A failed `operation` on `path`: `cannot open /dev/uinput: Permission denied`, with the hint for the code.
    static func failed(_ operation: String, path: String?, errno: Errno, hint: String? = nil) -> EvdevError {
        let target = path.map { " \($0)" } ?? ""
        return EvdevError(
            code(for: errno), path: path, errno: errno.rawValue,
            what: "cannot \(operation)\(target): \(errno)", hint: hint)
    }

    /// Opening (or creating a device through) /dev/uinput failed: the peripheral's side of R10.
    static func uinput(_ operation: String, path: String, errno: Errno) -> EvdevError {
        let hint: String? =
            switch code(for: errno) {
            case .permissionDenied:
                "the peripheral needs write access to \(path) to inject events (the Linux counterpart of macOS's "
                    + "accessibility permission, R10); run as root, or grant access: "
                    + "sudo setfacl -m u:$USER:rw \(path) (or a udev rule for a group)"
            case .notFound:
                "no \(path): load the uinput module (sudo modprobe uinput) or use the vm rig (hil vm exec -- …)"
            case .noDevice:
                "\(path) exists but no uinput driver answers it: load the uinput module (sudo modprobe uinput) "
                    + "or use the vm rig (hil vm exec -- …)"
            case .io where errno == .inappropriateIOCTLForDevice:
                "\(path) is not the uinput device (it does not answer uinput's ioctls); pass /dev/uinput"
            default:
                "check \(path) with `hil doctor`"
            }
        return failed(operation, path: path, errno: errno, hint: hint)
    }

    /// Opening or setting up an evdev node (/dev/input/eventN) for reading failed.
    static func evdev(_ operation: String, path: String, errno: Errno) -> EvdevError {
        let hint: String? =
            switch code(for: errno) {
            case .permissionDenied:
                "the verifier reads \(path): run as root, or add your user to the input group "
                    + "(sudo usermod -aG input $USER, then log in again)"
            case .notFound:
                "no node \(path): is the device still there? find its node by name with "
                    + "EvdevReader.waitForDevice(named:timeout:)"
            case .noDevice:
                "the device behind \(path) was removed (its uinput device was destroyed, or the peripheral exited)"
            case .busy:
                "another process grabbed \(path) (EVIOCGRAB): close the other reader, or open with grab: false"
            default:
                nil
            }
        return failed(operation, path: path, errno: errno, hint: hint)
    }
}
