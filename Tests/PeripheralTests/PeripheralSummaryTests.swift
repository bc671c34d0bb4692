@testable import Peripheral
import Testing

@Suite("The stop's totals line in hil peripheral's log (docs/computer.md, \"Stopping and exit status\")")
struct PeripheralSummaryTests {
    @Test("handled N commands, nearest-rank p50, p99 and max of receipt → uinput write; one command is singular")
    func summary() {
        #expect(RemoteTouchPeripheral.summary([]) == "handled 0 commands")
        #expect(RemoteTouchPeripheral.summary([.microseconds(1360)])
            == "handled 1 command, receipt → uinput write: p50 1.36 ms, p99 1.36 ms, max 1.36 ms")
        let times = (1...100).map { Duration.microseconds($0 * 10) }
        #expect(RemoteTouchPeripheral.summary(times.reversed())
            == "handled 100 commands, receipt → uinput write: p50 0.50 ms, p99 0.99 ms, max 1.00 ms")
    }
}
