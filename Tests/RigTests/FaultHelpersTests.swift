import Foundation
import HILTestSupport
import Processes
@testable import RigControl
import Testing

@Suite("Fault steps: rig manipulations that need no rig")
struct FaultHelpersTests {
    @Test("the emulated advertiser is addressed by hciN; another name is refused before any socket is opened")
    func adapterNames() async throws {
        #expect(try await EmulatedRadio.silenceAdvertising("bluetoothd0") == "bluetoothd0 is not an hciN name")
        #expect(try await EmulatedRadio.silenceAdvertising("hci") == "hci is not an hciN name")
    }

    @Test("the silence waits for this adapter's answer to LE Set Advertising Enable: Complete or Status, not another's")
    func silenceAnswered() {
        typealias Frames = HCICommandLedgerTests
        #expect(EmulatedRadio.answers(Frames.complete(0x200a), opcode: 0x200a, index: 0))
        #expect(EmulatedRadio.answers(Frames.status(0x200a), opcode: 0x200a, index: 0))
        #expect(!EmulatedRadio.answers(Frames.complete(0x200a, index: 1), opcode: 0x200a, index: 0))
        #expect(!EmulatedRadio.answers(Frames.complete(0x2006), opcode: 0x200a, index: 0))
        #expect(!EmulatedRadio.answers(AdvertisingWatchTests.silenced, opcode: 0x200a, index: 0))
    }

    @Test("bluetoothd's stop is SIGTERM, 5 s, then SIGKILL")
    func daemonStopSteps() {
        #expect(BluetoothDaemon.stopSteps == [.signal(SIGTERM), .wait(.seconds(5)), .kill])
    }

    @Test("no bluetoothd on this host (or several): the error names the step")
    func noDaemon() throws {
        guard ProcessTable.pids(named: "bluetoothd").count != 1 else { return }
        let error = #expect(throws: RigError.self) { _ = try BluetoothDaemon.running() }
        #expect(error?.what.hasPrefix("restartBluetoothd: ") == true)
        #expect(error?.code == .fault)
    }

    @Test("a denied uinput node needs a uinput character device; a missing one is a RigError saying so")
    func deniedNodeNeedsDevice() {
        let error = #expect(throws: RigError.self) { _ = try DeniedUinputNode(uinput: "/nonexistent/uinput") }
        #expect(error?.what == "/nonexistent/uinput is not a character device here, so there is nothing to deny (R10 needs the uinput module)")
    }

    @Test("as root the denied node is a character device of mode 0000; the file a non-root user gets instead is refused to that user with EACCES")
    func deniedNodeKinds() async throws {
        try #require(geteuid() == 0, "these tests run as root on the development machine and in CI")
        // /dev/null stands in for /dev/uinput: any character device's numbers make the node.
        let node = try DeniedUinputNode(uinput: "/dev/null")
        defer { node.remove() }
        var info = stat()
        #expect(stat(node.path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFCHR && info.st_mode & 0o7777 == 0)
        #expect(node.launcher.first?.hasSuffix("setpriv") == true)
        // What DeniedUinputNode makes for a user without CAP_MKNOD: an empty file of mode 0000. Opened for writing by
        // an unprivileged user (nobody, through setpriv), the kernel refuses it.
        let file = node.folder + "/as-user"
        #expect(mknod(file, S_IFREG | 0, 0) == 0 && chmod(file, 0) == 0)
        defer { unlink(file) }
        chmod(node.folder, 0o755)
        let (status, output) = try await runCapturing("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", "exec 3>\(file)"])
        #expect(status != 0)
        #expect(output.contains("Permission denied"), "\(output)")
    }
}
