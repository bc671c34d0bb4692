import Foundation
@testable import hil
import HILTestSupport
import Testing

/// `hil rig main-conf` (issue 54, item 7): a --base it cannot use is named in the system's words, never Foundation's
/// error text, and its help lists every exit status it returns and where the rig files come from.
@Suite("hil rig main-conf: --base in the system's words; its help says every status and $HIL_RIGS")
struct RigMainConfTests {
    @Test("--base /dev/null starts from nothing; a folder or an unreadable file is named with the system's reason, exit 64")
    func base() async throws {
        let hil = try RigGuest.hilBinary()
        let empty = try await runSeparating(hil, ["rig", "main-conf", "--rig", "vm", "--base", "/dev/null"])
        #expect(empty.status == 0 && empty.output.hasPrefix("[LE]\n"), "\(empty.status): \(empty.errors)")
        let folder = try scratchFolder("main-conf")
        defer { try? FileManager.default.removeItem(at: folder) }
        let asFolder = try await runSeparating(hil, ["rig", "main-conf", "--rig", "vm", "--base", folder.path])
        #expect(asFolder.status == 64, "\(asFolder.errors)")
        #expect(asFolder.errors == "hil rig main-conf: --base \(folder.path): is a folder, not a file\n", "\(asFolder.errors)")
        for runs in [empty, asFolder] {
            #expect(!runs.errors.contains("NSCocoaErrorDomain") && !runs.errors.contains("Error Domain"), "\(runs.errors)")
        }
        if getuid() != 0 {
            let locked = folder.appendingPathComponent("main.conf")
            try write("[General]\n", to: locked)
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
            let denied = try await runSeparating(hil, ["rig", "main-conf", "--rig", "vm", "--base", locked.path])
            #expect(denied.status == 64 && denied.errors.contains("Permission denied (errno 13)"), "\(denied.errors)")
        }
    }

    @Test("its help lists every status it returns, and --rigs says $HIL_RIGS")
    func help() throws {
        let help = HIL.helpMessage(for: RigMainConfCommand.self, columns: 10_000)
        #expect(help.contains("Exit status 0 when it printed the file; 64 (invalid input) when no rig has the name --rig gives"), "\(help)")
        #expect(try NumberRangeTests.block("--rigs", of: "rig main-conf").contains("Default: $HIL_RIGS, else the project's Rigs/ folder"))
    }
}
