import Foundation
@testable import hil
import HILTestSupport
import Rig
import RigControl
import Runner
import System
import Testing

/// One exit status per cause, the same in every command (issue 54, item 2): README's table is `ExitCause`, and each
/// status of it comes from its cause — the built hil for what needs no rig, the mapping for what needs one running.
@Suite("Exit status: one per cause, the same in every command, as README's table says")
struct ExitCauseTests {
    /// README.md's "Exit status" table: status → cause.
    static func readmeTable() throws -> [Int32: String] {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Exit status\n").dropFirst().first)
        var rows: [Int32: String] = [:]
        for line in section.split(separator: "\n").prefix(while: { !$0.hasPrefix("## ") }) where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if let code = Int32(cells[0]) { rows[code] = cells[1] }
        }
        return rows
    }

    @Test("README's table and hil --help list every status with its cause, and nothing else")
    func table() throws {
        let rows = try Self.readmeTable()
        #expect(Set(rows.keys) == Set(ExitCause.allCases.map(\.rawValue)), "README: \(rows.keys.sorted())")
        for status in ExitCause.allCases {
            #expect(rows[status.rawValue] == status.meaning, "README's \(status.rawValue): \(rows[status.rawValue] ?? "missing")")
        }
        let help = HIL.helpMessage(columns: 10_000)
        for status in ExitCause.allCases {
            #expect(help.contains("\(status.rawValue)") && help.contains(status.meaning), "hil --help: \(status.rawValue)")
        }
    }

    /// A folder with one hardware rig whose adapters no host has: no rig can run with it.
    static func unusableRigs() throws -> URL {
        let folder = try scratchFolder("exit-rigs")
        try write("""
            {"name": "hardware", "description": "adapters no host has", "kind": "hardware", "peripheralAdapter": "hci98",
             "centralAdapter": "hci99", "controllers": "existing", "bluetoothd": "system",
             "uinputDeviceName": "RemoteTouch HIL Virtual Input", "latencyScale": 1}
            """, to: folder.appendingPathComponent("hardware.json"))
        return folder
    }

    @Test("0, 1, 2, 64, 69: what needs no rig, from the built hil")
    func withoutRig() async throws {
        let hil = try RigGuest.hilBinary()
        let folder = try scratchFolder("exit-status")
        defer { try? FileManager.default.removeItem(at: folder) }
        let failing = folder.appendingPathComponent("failing.json")
        try write(#"{"name": "f", "steps": [{"tap": {}, "expect": {"keys": ["BTN_RIGHT 1", "BTN_RIGHT 0"]}}]}"#, to: failing)
        let invalid = folder.appendingPathComponent("invalid.json")
        try write(#"{"name": 3, "steps": []}"#, to: invalid)
        let rigs = try Self.unusableRigs()
        defer { try? FileManager.default.removeItem(at: rigs) }
        let rigOnly = packageRoot.appendingPathComponent("Scenarios-nightly/pairing/lockout-after-three-wrong-codes.json").path
        let good = packageRoot.appendingPathComponent("Scenarios-nightly/buttons/basic-mouse-mode.json").path

        let cases: [(ExitCause, [String])] = [
            (.passed, ["replay", "-q", good]),
            (.productFailed, ["replay", "-q", failing.path]),
            (.notJudged, ["replay", "-q", rigOnly]),
            (.invalidInput, ["run", invalid.path]),
            (.invalidInput, ["validate", invalid.path]),
            (.invalidInput, ["run", "--send-jitter", "-1", good]),
            (.invalidInput, ["doctor", "--rig", "nosuch"]),
            (.noUsableRig, ["run", "--rigs", rigs.path, good]),
            (.noUsableRig, ["doctor", "--rigs", rigs.path]),
        ]
        for (status, arguments) in cases {
            let run = try await runSeparating(hil, arguments, in: folder)
            #expect(run.status == status.rawValue, "hil \(arguments.joined(separator: " ")) exited \(run.status): \(run.errors)")
        }
    }

    @Test("124, 125, 130 and the rig's 64 and 69: each rig error and run ending maps to its cause")
    func withRig() {
        let causes: [(RigErrorCode, ExitCause)] = [
            (.unknownRig, .invalidInput), (.rigFile, .invalidInput), (.guestCommand, .invalidInput),
            (.noRunnableRig, .noUsableRig), (.missingTool, .noUsableRig), (.imageBuild, .noUsableRig), (.boot, .noUsableRig),
            (.notReady, .noUsableRig), (.timeout, .timedOut), (.fault, .rigBroke), (.guestStopped, .rigBroke),
            (.interrupted, .interrupted),
        ]
        for (code, status) in causes {
            #expect(RigError(code, "x").exitStatus == status, "\(code)")
        }
        #expect(RunExit.allCases.map(\.status) == [.passed, .productFailed, .rigBroke, .interrupted])
        #expect(RunExit(interrupted: true, rigBroken: true, failures: 1).status == .interrupted)
        #expect(RunExit(interrupted: false, rigBroken: true, failures: 1).status == .rigBroke)
    }
}
