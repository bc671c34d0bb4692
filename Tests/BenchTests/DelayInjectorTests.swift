import RunContext
import Bench
import Foundation
import HILTestSupport
import Radio
import RigControl
import Testing

/// Where `hil calibrate` puts ble's and hid's delay: the running rig's radio bridges (`RunningRig.Radio`), each told
/// `delay MS` and each answering that it holds it.
@Suite("Calibration's delay injection into the radio model")
struct DelayInjectorTests {
    static func context(radio folder: String?) -> RunContext {
        let radio = folder.map { RunningRig.Radio(control: RadioControl(folder: $0), intervalMs: 15, packetErrorRate: 0) }
        let rig = RunningRig(name: "vm", lanes: [.init(peripheral: "hci0", central: "hci1")], uinputName: "x", radio: radio)
        return RunContext(rig: rig, hil: "/bin/false", writePath: nil, workDirectory: "/tmp")
    }

    static func folder(_ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("ble and hid on a rig without radio bridges are refused with the reason and what to do; so are udp without hosts and no transport")
    func refused() throws {
        let error = #expect(throws: (any Error).self) { try DelayInjector.make(for: "hid", context: Self.context(radio: nil)) }
        #expect("\(error!)".contains("rig vm started none") && "\(error!)".contains("vm rig"), "\(error!)")
        #expect(throws: (any Error).self) { try DelayInjector.make(for: "udp", context: Self.context(radio: nil)) }
        #expect(throws: (any Error).self) { try DelayInjector.make(for: "bogus", context: Self.context(radio: "/tmp")) }
    }

    @Test("every bridge is told each delay and `delay 0` when cleared, and answers it holds it; no bridge FIFO is an error")
    func tellsEveryBridge() async throws {
        let folder = try Self.folder("hil-radio-control")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let injector = try DelayInjector.make(for: "ble", context: Self.context(radio: folder))
        await #expect(throws: BenchError.self) { try await injector.apply(5) }
        let bridges = try AnsweringBridges(2, in: folder) { command in
            if case .delay(let ms) = command { return .init(delayMs: ms) }
            return .init()
        }
        defer { bridges.stop() }
        #expect("\(injector)".contains(folder))
        try await injector.apply(5)
        try await injector.apply(2.5)
        await injector.clear()
        #expect(bridges.received == Array(repeating: [.delay(milliseconds: 5), .delay(milliseconds: 2.5), .delay(milliseconds: 0)], count: 2))
    }

    @Test("a bridge that answers with another delay than asked fails the calibration, naming what it holds")
    func heldOtherwise() async throws {
        let folder = try Self.folder("hil-radio-stuck")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bridges = try AnsweringBridges(1, in: folder) { _ in .init(delayMs: 1) }
        defer { bridges.stop() }
        let injector = try DelayInjector.make(for: "hid", context: Self.context(radio: folder))
        let error = await #expect(throws: BenchError.self) { try await injector.apply(20) }
        #expect(error?.what.contains("did not take a delay of 20 ms: it holds 1 ms") == true, "\(String(describing: error))")
    }
}
