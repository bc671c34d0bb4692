import Evdev
import Foundation
import HILTestSupport
import Testing

/// Runs as an unprivileged user inside the rig, started by `EvdevOnRig.unprivileged` through setpriv (root
/// bypasses file modes, so the real EACCES needs another uid). Disabled anywhere else.
@Suite(
    "uinput and evdev as an unprivileged user (EvdevUnprivilegedOnRig)", .tags(.rig),
    .enabled(if: RigGuest.isInsideRig && getuid() != 0, "runs as nobody inside the rig, started by EvdevOnRig"))
struct EvdevUnprivilegedOnRig {
    @Test("opening /dev/uinput without write access: permissionDenied with the R10 message")
    func uinputDenied() throws {
        let thrown = #expect(throws: EvdevError.self) { try UinputDevice(name: "hil unprivileged") }
        let error = try #require(thrown)
        #expect(error.code == .permissionDenied, "expected permissionDenied, got \(error.code): \(error)")
        #expect(error.errno == EACCES)
        let expected = "cannot open /dev/uinput: Permission denied\n  → the peripheral needs write access to "
            + "/dev/uinput to inject events (the Linux counterpart of macOS's accessibility permission, R10); "
            + "run as root, or grant access: sudo setfacl -m u:$USER:rw /dev/uinput (or a udev rule for a group)"
        #expect(error.description == expected, "expected:\n\(expected)\nactual:\n\(error.description)")
    }

    @Test("opening an evdev node without read access: permissionDenied, pointing at the input group")
    func evdevDenied() throws {
        let nodes = try FileManager.default.contentsOfDirectory(atPath: "/dev/input").filter { $0.hasPrefix("event") }
        let node = "/dev/input/" + (try #require(nodes.sorted().first, "no evdev node in /dev/input"))
        let thrown = #expect(throws: EvdevError.self) { try EvdevReader(devnode: node) }
        let error = try #require(thrown)
        #expect(error.code == .permissionDenied, "expected permissionDenied, got \(error.code): \(error)")
        #expect(error.description.contains("add your user to the input group"), "\(error)")
    }
}
