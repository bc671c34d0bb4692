import Rig
import RigControl
import System
import Testing

/// The exit status each rig error gives on the command line (`ExitCause`, README.md's "Exit status"; Rigs/README.md,
/// `hil vm exec --help`): what the user gave is invalid input, a rig that cannot run or come up is no usable rig, and
/// only what broke under the command is the rig breaking (125).
@Suite struct RigErrorExitStatusTests {
    @Test(arguments: [
        (RigError.Code.unknownRig, ExitCause.invalidInput), (.rigFile, .invalidInput), (.guestCommand, .invalidInput),
        (.noRunnableRig, .noUsableRig), (.missingTool, .noUsableRig), (.imageBuild, .noUsableRig), (.boot, .noUsableRig),
        (.notReady, .noUsableRig), (.timeout, .timedOut), (.interrupted, .interrupted), (.fault, .rigBroke),
        (.guestStopped, .rigBroke),
    ])
    func exitStatus(code: RigError.Code, status: ExitCause) {
        #expect(RigError(code, "a message").exitStatus == status)
    }

    /// A rig name no rig file has is invalid input: nothing was tried, so it is not the rig's failure (125).
    @Test func unknownRigIsInvalidInput() throws {
        let catalog = try RigCatalog(directory: RigCatalog.locate() ?? "Rigs")
        #expect(throws: RigError.self) { try catalog.rig(named: "bogus") }
        do {
            _ = try catalog.rig(named: "bogus")
        } catch {
            #expect(error.code == .unknownRig && error.exitStatus == .invalidInput)
        }
    }
}
