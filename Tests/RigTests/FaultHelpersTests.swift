import Foundation
@testable import Runner
import Testing

@Suite("Fault steps: helpers that need no rig")
struct FaultHelpersTests {
    @Test("the emulated advertiser is addressed by hciN; another name is refused before any socket is opened")
    func adapterNames() {
        #expect(EmulatedRadio.silenceAdvertising("bluetooth0") == "bluetooth0 is not an hciN name")
        #expect(EmulatedRadio.silenceAdvertising("hci") == "hci is not an hciN name")
    }

    @Test("a live process is not a zombie; a pid that does not exist is neither alive nor a zombie")
    func processStates() {
        #expect(!BluetoothDaemon.isZombie(getpid()))
        #expect(BluetoothDaemon.alive(getpid()))
        #expect(!BluetoothDaemon.alive(Int32.max))
        #expect(!BluetoothDaemon.isZombie(Int32.max))
    }

    @Test("a child that exited is not alive, whether or not it was reaped yet (kill(pid, 0) alone says it is)")
    func zombie() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        let pid = child.processIdentifier
        // Foundation reaps it on its own, so it may be a zombie for a moment or gone: either way, not alive.
        let deadline = ContinuousClock.now + .seconds(5)
        while BluetoothDaemon.alive(pid) && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(!BluetoothDaemon.alive(pid))
    }
}
