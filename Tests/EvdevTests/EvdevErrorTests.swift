@testable import Evdev
import Glibc
import InputCodes
import System
import Testing

/// What a person reads when uinput or an evdev node cannot be used. These run anywhere: the failures are made
/// with paths that do not exist, or with the errno directly where only an unprivileged process could get it
/// (the real EACCES is proven inside the rig by `EvdevUnprivileged`).
@Suite("Evdev errors name the device and the fix")
struct EvdevErrorTests {
    static let r10Hint =
        "the peripheral needs write access to /dev/uinput to inject events (the Linux counterpart of macOS's "
        + "accessibility permission, R10); run as root, or grant access: sudo setfacl -m u:$USER:rw /dev/uinput "
        + "(or a udev rule for a group)"

    @Test("EACCES on /dev/uinput explains R10 and how to grant access")
    func uinputPermissionMessage() {
        let error = EvdevError.uinput("open", path: "/dev/uinput", errno: Errno(rawValue: EACCES))
        #expect(error.code == .permissionDenied)
        #expect(error.errno == EACCES)
        #expect(error.path == "/dev/uinput")
        let expected = "cannot open /dev/uinput: Permission denied\n  → " + Self.r10Hint
        #expect(error.description == expected, "expected:\n\(expected)\nactual:\n\(error.description)")
    }

    @Test("EPERM counts as permission denied too")
    func uinputPermissionEPERM() {
        let error = EvdevError.uinput("open", path: "/dev/uinput", errno: Errno(rawValue: EPERM))
        #expect(error.code == .permissionDenied)
        #expect(error.hint?.contains("R10") == true, "hint: \(error.hint ?? "none")")
    }

    @Test("a missing uinput node: notFound, naming the path, modprobe and the vm rig")
    func uinputMissing() throws {
        let thrown = #expect(throws: EvdevError.self) {
            try UinputDevice(name: "hil missing uinput", uinputPath: "/nonexistent/uinput")
        }
        let error = try #require(thrown)
        #expect(error.code == .notFound, "expected notFound, got \(error.code): \(error)")
        #expect(error.errno == ENOENT)
        #expect(error.path == "/nonexistent/uinput")
        let expected = "cannot open /nonexistent/uinput: No such file or directory\n  → no /nonexistent/uinput: load "
            + "the uinput module (sudo modprobe uinput) or use the vm rig (hil vm exec -- …)"
        #expect(error.description == expected, "expected:\n\(expected)\nactual:\n\(error.description)")
    }

    @Test("a node that is not uinput (/dev/null) is named as such")
    func notUinput() throws {
        let thrown = #expect(throws: EvdevError.self) {
            try UinputDevice(name: "hil not uinput", uinputPath: "/dev/null")
        }
        let error = try #require(thrown)
        #expect(error.errno == ENOTTY, "expected ENOTTY, got \(error.errno.map(String.init) ?? "none"): \(error)")
        #expect(
            error.description.hasPrefix("cannot create uinput device \"hil not uinput\" through /dev/null: "),
            "\(error)")
        #expect(
            error.hint == "/dev/null is not the uinput device (it does not answer uinput's ioctls); pass /dev/uinput",
            "\(error)")
    }

    /// A device name with a readable label (a NUL would cut the test log).
    struct BadName: CustomTestStringConvertible, Sendable {
        var name: String
        var testDescription: String
        static let all = [
            BadName(name: "", testDescription: "empty"),
            BadName(name: String(repeating: "n", count: 80), testDescription: "80 bytes"),
            BadName(name: "nul\u{0}inside", testDescription: "with a NUL"),
        ]
    }

    @Test("names uinput cannot take are refused before anything is opened", arguments: BadName.all)
    func badNames(bad: BadName) throws {
        let thrown = #expect(throws: EvdevError.self) {
            try UinputDevice(name: bad.name, uinputPath: "/nonexistent/uinput")
        }
        let error = try #require(thrown)
        #expect(error.code == .invalidArgument, "expected invalidArgument, got \(error.code): \(error)")
        #expect(error.description.contains("a name must have 1 to 79 bytes"), "\(error)")
    }

    @Test("a missing evdev node: notFound, pointing at waitForDevice")
    func readerMissingNode() throws {
        let thrown = #expect(throws: EvdevError.self) { try EvdevReader(devnode: "/nonexistent/event99") }
        let error = try #require(thrown)
        #expect(error.code == .notFound)
        let expected = "cannot open /nonexistent/event99: No such file or directory\n  → no node /nonexistent/event99: "
            + "is the device still there? find its node by name with EvdevReader.waitForDevice(named:timeout:)"
        #expect(error.description == expected, "expected:\n\(expected)\nactual:\n\(error.description)")
    }

    @Test("EACCES on an evdev node says to join the input group; EBUSY on grab names EVIOCGRAB")
    func readerMessages() {
        let denied = EvdevError.evdev("open", path: "/dev/input/event3", errno: Errno(rawValue: EACCES))
        #expect(denied.code == .permissionDenied)
        #expect(
            denied.description == "cannot open /dev/input/event3: Permission denied\n  → the verifier reads "
                + "/dev/input/event3: run as root, or add your user to the input group "
                + "(sudo usermod -aG input $USER, then log in again)",
            "\(denied)")
        let busy = EvdevError.evdev("grab (EVIOCGRAB)", path: "/dev/input/event3", errno: Errno(rawValue: EBUSY))
        #expect(busy.code == .busy)
        #expect(
            busy.description == "cannot grab (EVIOCGRAB) /dev/input/event3: Device or resource busy\n  → another "
                + "process grabbed /dev/input/event3 (EVIOCGRAB): close the other reader, or open with grab: false",
            "\(busy)")
    }

    @Test("errno values map to codes", arguments: [
        (EACCES, EvdevError.Code.permissionDenied), (EPERM, .permissionDenied), (ENOENT, .notFound),
        (ENODEV, .noDevice), (ENXIO, .noDevice), (EBUSY, .busy), (EINVAL, .invalidArgument), (EIO, .io),
    ])
    func codes(errno: Int32, code: EvdevError.Code) {
        #expect(EvdevError.code(for: Errno(rawValue: errno)) == code)
    }

    @Test("Errno reads libevdev's negative returns; success is nil")
    func libevdevResults() {
        #expect(Errno(libevdevResult: -EACCES) == Errno(rawValue: EACCES))
        #expect(Errno(libevdevResult: 0) == nil)
        #expect(Errno(libevdevResult: 1) == nil)
    }
}
