import Foundation
import Processes
@testable import Rig
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
}
