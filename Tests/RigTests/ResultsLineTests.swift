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

/// The radio bridges' control FIFOs, one owner for calibrate's delays and the radio step's error rate.
@Suite("RadioControl: the bridges' FIFOs found, each told the same line")
struct RadioControlTests {
    @Test("every bridge's FIFO gets the line; no folder, or one without FIFOs, is refused with what to do")
    func sends() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("radio-control-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: RigError.self) { try RadioControl.find(in: nil, remedy: "use the vm rig") }
        #expect(throws: RigError.self) { try RadioControl.find(in: folder, remedy: "use the vm rig") }
        let readers = try openControlFIFOs(2, in: folder)
        defer { for fd in readers { close(fd) } }
        let control = try RadioControl.find(in: folder, remedy: "use the vm rig")
        #expect(control.fifos == ["\(folder)/control-0", "\(folder)/control-1"])
        try control.send("error-rate 0.1")
        for fd in readers {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(fd, &buffer, buffer.count)
            #expect(String(decoding: buffer[0..<max(0, count)], as: UTF8.self) == "error-rate 0.1\n")
        }
    }
}
