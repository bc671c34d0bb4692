import RunContext
import Bench
import Foundation
import HILTestSupport
import Testing

/// Where `hil calibrate` puts ble's and hid's delay: the radio bridges' control FIFOs (HIL_RADIO_CONTROL).
@Suite("Calibration's delay injection into the radio model")
struct DelayInjectorTests {
    static let context = RunContext(hil: "/bin/false", peripheralAdapter: "hci0", centralAdapter: "hci1", uinputName: "x",
                                                latencyScale: 1, writePath: nil, workDirectory: "/tmp")

    @Test("ble and hid without the radio model are refused with the reason and what to do")
    func refused() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("hil-radio-empty-\(getpid())").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        for (control, says) in [(nil, "HIL_RADIO_CONTROL is unset"), (empty, "no radio bridge's control FIFO (control-K) in \(empty)")] {
            do {
                _ = try DelayInjector.make(for: "hid", context: Self.context, radioControl: control)
                Issue.record("hid was accepted with radio control \(control ?? "unset")")
            } catch {
                #expect("\(error)".contains(says) && "\(error)".contains("vm rig"), "\(error)")
            }
        }
        #expect(throws: (any Error).self) { try DelayInjector.make(for: "udp", context: Self.context, radioControl: nil) }
        #expect(throws: (any Error).self) { try DelayInjector.make(for: "bogus", context: Self.context, radioControl: "/tmp") }
    }

    @Test("each bridge's FIFO gets `delay MS` for every delay, and `delay 0` when cleared")
    func writesEveryFIFO() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hil-radio-control-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let readers = try openControlFIFOs(2, in: folder)
        defer { for fd in readers { close(fd) } }
        let injector = try DelayInjector.make(for: "ble", context: Self.context, radioControl: folder)
        #expect("\(injector)".contains("control-0") && "\(injector)".contains("control-1"))
        try injector.apply(5)
        try injector.apply(2.5)
        injector.clear()
        for fd in readers {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(fd, &buffer, buffer.count)
            #expect(String(decoding: buffer[0..<max(0, count)], as: UTF8.self) == "delay 5\ndelay 2.5\ndelay 0\n")
        }
    }
}
