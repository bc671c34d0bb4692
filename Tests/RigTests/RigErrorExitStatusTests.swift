import Rig
import Testing

/// The exit status each rig error gives on the command line (Rigs/README.md, `hil vm exec --help`).
@Suite struct RigErrorExitStatusTests {
    @Test(arguments: [
        (RigError.Code.unknownRig, Int32(64)), (.timeout, 124), (.interrupted, 130), (.boot, 125), (.notReady, 125), (.rigFile, 125),
    ])
    func exitStatus(code: RigError.Code, status: Int32) {
        #expect(RigError(code, "a message").exitStatus == status)
    }

    /// A rig name no rig file has is a usage error: nothing was tried, so it is not the rig's failure (125).
    @Test func unknownRigIsAUsageError() throws {
        let catalog = try RigCatalog(directory: RigCatalog.locate() ?? "Rigs")
        #expect(throws: RigError.self) { try catalog.rig(named: "bogus") }
        do {
            _ = try catalog.rig(named: "bogus")
        } catch {
            #expect(error.code == .unknownRig && error.exitStatus == 64)
        }
    }
}
