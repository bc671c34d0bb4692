import Foundation
import HILTestSupport
import Testing
import System

/// `hil run --phone` before any rig boots (issue 52): a phone that is no phone is invalid input; the Bumble phone
/// missing from the checkout stops the run (69) naming the command that installs it; `hil doctor` says whether it is there.
@Suite("--phone before a rig boots, and hil doctor's Bumble line")
struct PhoneOptionTests {
    static let good = packageRoot.appendingPathComponent("Scenarios-nightly/buttons/basic-mouse-mode.json").path

    @Test("--phone android is refused (64) with the phones there are")
    func unknown() async throws {
        let run = try await runSeparating(try RigGuest.hilBinary(), ["run", "--phone", "android", Self.good])
        #expect(run.status == ExitCause.invalidInput.rawValue, "\(run.errors)")
        #expect(run.errors.contains("--phone"), "\(run.errors)")
    }

    @Test("without .venv-bumble beside the rig files, --phone bumble stops before booting (69) and names bash Rigs/setup.sh")
    func missing() async throws {
        let checkout = try scratchFolder("no-bumble")
        defer { try? FileManager.default.removeItem(at: checkout) }
        let rigs = checkout.appendingPathComponent("Rigs")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Rigs"), to: rigs)
        let hil = try RigGuest.hilBinary()
        let run = try await runSeparating(hil, ["run", "--phone", "bumble:minimal", "--rigs", rigs.path, Self.good])
        #expect(run.status == ExitCause.noUsableRig.rawValue, "\(run.errors)")
        #expect(run.errors.contains("the Bumble phone is not installed") && run.errors.contains("bash Rigs/setup.sh"), "\(run.errors)")
        #expect(!run.output.contains("HIL-RIG-READY") && !run.errors.contains("image"), "it booted: \(run.errors)")
        let doctor = try await runSeparating(hil, ["doctor", "--rigs", rigs.path])
        #expect(doctor.output.contains("the Bumble phone (hil run --phone bumble): the Bumble phone is not installed"), "\(doctor.output)")
    }
}
