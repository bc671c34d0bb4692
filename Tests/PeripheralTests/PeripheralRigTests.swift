import Foundation
import HILTestSupport
import Testing

/// Runs `PeripheralInRig` inside a rig (the vm here; whatever `--rig auto` picks on a nightly box).
@Suite("Peripheral in a rig")
struct PeripheralRigTests {
    @Test("the peripheral works end to end on real BlueZ and uinput")
    func inRig() {
        #expect(RigGuest.failure(filter: "PeripheralInRigTests/") == nil)
    }
}

/// R10: without a usable uinput device the peripheral refuses to start, says why and what to do. (The
/// permission-denied case, which needs an unprivileged user on a kernel with uinput, is the in-rig
/// EvdevUnprivileged suite.)
@Suite("hil peripheral without uinput")
struct PeripheralPermissionTests {
    @Test("no uinput device: exit 1 before touching BlueZ, with the reason and the fix")
    func refusesWithoutUinput() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("hil-r10-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try RigGuest.hilBinary())
        process.arguments = ["peripheral", "--state-dir", state, "--uinput-path", "/nonexistent/uinput"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(output.contains("cannot inject input events"), "\(output)")
        #expect(output.contains("/nonexistent/uinput"))
        #expect(output.contains("R10"))
        #expect(output.contains("→ "), "no fix given: \(output)")
        #expect(!output.contains("registered on"))
    }
}
