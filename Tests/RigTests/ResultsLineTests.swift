import Foundation
@testable import Rig
import HILTestSupport
import Testing

/// Where the results are, said once with paths a person can open (issue "A newcomer never stumbles", item 10).
@Suite("Results paths: the guest leaves them to the host, which names where it copied them")
struct ResultsLineTests {
    @Test("a folder in the vm guest's share is copied back: the guest's command prints no results line for it")
    func copiedBack() {
        let guest = RigEnvironment(share: "/hil/share")
        #expect(guest.isCopiedBack("/hil/share/results"))
        #expect(guest.isCopiedBack("/hil/share"))
        #expect(!guest.isCopiedBack("/hil/shared/results"))
        #expect(!RigEnvironment().isCopiedBack("/hil/share/results"))
        let running = RigEnvironment(rig: "vm", share: "/hil/share").runningRig(nil)
        #expect(running.resultsLine(["results.json"], in: "/hil/share/results") == nil)
        #expect(running.resultsLine(["results.json", "junit.xml"], in: "/hil/shared/results")
            == "results: /hil/shared/results/results.json, /hil/shared/results/junit.xml")
    }

    @Test("the host's line: the files at the top of the folder it copied into, the scenario folders and the BlueZ logs")
    func hostLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-line-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["001-swipe", "rig-logs"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
        }
        for name in ["results.json", "junit.xml"] { try Data().write(to: URL(fileURLWithPath: folder + "/" + name)) }
        #expect(RigJobRunner.resultsLine(folder)
            == "results: \(folder)/junit.xml, \(folder)/results.json; logs in 1 folder(s) there; the guest's BlueZ logs in \(folder)/rig-logs")
    }
}
