import Foundation
import Processes
import Testing

@Suite("Process table: the daemons a rig must find and stop")
struct ProcessTableTests {
    /// A bluetoothd restarted by a restartBluetoothd step is not the rig's child; the rig finds it by its name and
    /// its private bus address in its environment.
    @Test("processes are found by name and an environment entry, and only those")
    func byNameAndEnvironment() throws {
        let marker = "HIL_TEST_MARKER=\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let child = try ChildProcess(
            "/bin/sleep", ["30"], environment: [String(marker.split(separator: "=")[0]): String(marker.split(separator: "=")[1])],
            output: .inherit, ownProcessGroup: true)
        defer { child.teardownBlocking([.kill]) }
        let deadline = ContinuousClock.now + .seconds(5)
        var found: [Int32] = []
        while found.isEmpty && ContinuousClock.now < deadline {
            found = ProcessTable.pids(named: "sleep").filter { ProcessTable.fields("environ", of: $0).contains(marker) }
            if found.isEmpty { Thread.sleep(forTimeInterval: 0.02) }
        }
        #expect(found == [child.pid])
        #expect(ProcessTable.pids(named: "sleep").filter { ProcessTable.fields("environ", of: $0).contains(marker + "x") }.isEmpty)
        #expect(ProcessTable.pids(named: "bluetoothd").filter { ProcessTable.fields("environ", of: $0).contains(marker) }.isEmpty)
        #expect(ProcessTable.fields("cmdline", of: child.pid) == ["/bin/sleep", "30"])
    }
}
