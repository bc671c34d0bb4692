import Foundation
@testable import Rig
import RigControl
import StrictJSON
import Testing

@Suite("The rig file's radio: the model, the interval, what the vm guest is told")
struct RigRadioTests {
    /// A vm rig file with `radio` (a JSON text, or none).
    func rig(_ radio: String?, kind: String = "vm") throws -> RigDefinition {
        let extra = radio.map { #", "radio": \#($0)"# } ?? ""
        return try RigDefinition.parse(JSONParser().parse(#"""
            {"name": "r", "description": "x", "kind": "\#(kind)", "peripheralAdapter": "hci0", "centralAdapter": "hci1",
             "controllers": "btvirt", "bluetoothd": "private"\#(extra)}
            """#))
    }

    func problems(_ radio: String, kind: String = "vm") -> [String] {
        do {
            _ = try rig(radio, kind: kind)
            return []
        } catch let error as RigFileProblems {
            return error.problems.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test("no radio, or immediate: today's btvirt, nothing on the guest's command line")
    func immediate() throws {
        #expect(try rig(nil).radio == RigDefinition.Radio())
        let immediate = try rig(#"{"model": "immediate"}"#).radio
        #expect(immediate.model == .immediate && immediate.kernelArguments(hil: "/x/hil") == [])
        #expect(immediate.summary == "immediate")
    }

    @Test("connection events: the interval in ms and in 1.25 ms units, and the guest's two words")
    func connectionEvents() throws {
        let radio = try rig(#"{"model": "connectionEvents", "intervalMs": 7.5}"#).radio
        #expect(radio == RigDefinition.Radio(model: .connectionEvents, intervalMs: 7.5))
        #expect(radio.intervalUnits == 6)
        #expect(radio.kernelArguments(hil: "/work/main/.build/debug/hil")
            == ["HIL_RADIO_INTERVAL_MS=7.5", "HIL_RADIO_HIL=/work/main/.build/debug/hil"])
        #expect(radio.summary == "connection events every 7.5 ms")
    }

    @Test("the shipped vm rig keeps a radio's time: connection events 15 ms apart (docs/measurements.md has its table)")
    func shipped() throws {
        let vm = try RigCatalog(directory: rigsFolder).rig(named: "vm")
        #expect(vm.radio == RigDefinition.Radio(model: .connectionEvents, intervalMs: 15))
    }

    @Test("bad radios are named with their JSON path")
    func refused() {
        #expect(problems(#"{"model": "connectionEvents", "intervalMs": 16}"#)
            == ["radio.intervalMs: 16 is no connection interval: 7.5...4000 in steps of 1.25"])
        #expect(problems(#"{"model": "connectionEvents"}"#) == ["radio: missing required key \"intervalMs\""])
        #expect(problems(#"{"model": "immediate", "intervalMs": 15}"#)
            == ["radio.intervalMs: the immediate model has no interval; remove it or use \"connectionEvents\""])
        #expect(problems(#"{"model": "radio", "extra": 1}"#).count == 2)
        #expect(problems(#"{"model": "connectionEvents", "intervalMs": 15}"#, kind: "virtual")
            == ["radio.model: connectionEvents is wired in the vm rig only (Rigs/vm/guest-run.sh); use \"immediate\" here"])
    }

    @Test("the guest runs the hil that started it, or the one built beside a test bundle; never a missing one")
    func hilExecutable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hil-radio-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let hil = folder.appendingPathComponent("hil").path
        #expect(throws: RigError.self) { try VMRunner.hilExecutable(running: folder.appendingPathComponent("Tests.xctest").path) }
        #expect(FileManager.default.createFile(atPath: hil, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        #expect(try VMRunner.hilExecutable(running: hil) == hil)
        #expect(try VMRunner.hilExecutable(running: folder.appendingPathComponent("Tests.xctest").path) == hil)
    }

    @Test("guest-run.sh reads the words VMRunner writes and the share file it leaves, and starts btvirt's server")
    func guestAgrees() throws {
        let script = try String(contentsOfFile: packageRoot.appendingPathComponent("Rigs/vm/guest-run.sh").path, encoding: .utf8)
        let words = RigDefinition.Radio(model: .connectionEvents, intervalMs: 15).kernelArguments(hil: "/h")
        for name in words.map({ String($0.prefix { $0 != "=" }) }) + [RigDefinition.mainConfFileName] {
            #expect(script.contains(name), "guest-run.sh never mentions \(name)")
        }
        #expect(script.contains("btvirt -L -s") && script.contains("RADIO_SOCKET=/tmp/bt-server-le"))
        #expect(script.contains(#""$RADIO_HIL" radio --vhci /dev/vhci --socket "$RADIO_SOCKET" --interval-ms "$RADIO_INTERVAL_MS""#))
    }
}
