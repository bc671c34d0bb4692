import Foundation
import HILTestSupport
import Testing

/// R10: without a usable uinput device the peripheral refuses to start, says why and what to do. (The
/// permission-denied case, which needs an unprivileged user on a kernel with uinput, is the in-rig
/// EvdevUnprivileged suite.)
@Suite("hil peripheral without uinput")
struct PeripheralPermissionTests {
    @Test("no uinput device: exit 69 (no usable rig) before touching BlueZ, with the reason and the fix")
    func refusesWithoutUinput() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("hil-r10-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let (status, output) = try await runCapturing(
            try RigGuest.hilBinary(), ["peripheral", "--state-dir", state, "--uinput-path", "/nonexistent/uinput"])
        #expect(status == 69, "\(output)")
        #expect(output.contains("cannot inject input events"), "\(output)")
        #expect(output.contains("/nonexistent/uinput"))
        #expect(output.contains("R10"))
        #expect(output.contains("→ "), "no fix given: \(output)")
        #expect(!output.contains("registered on"))
    }
}
