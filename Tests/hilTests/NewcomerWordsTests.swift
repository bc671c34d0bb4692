import ArgumentParser
import Foundation
@testable import hil
import HILTestSupport
import Records
import Testing

/// Words a newcomer reads (issue "A newcomer never stumbles", item 8): each command's own usage on a usage error,
/// help that says what the code does, counts in the right number.
@Suite("hil's words: usage lines, help that is current, singular and plural")
struct NewcomerWordsTests {
    @Test("a usage error shows the command's own usage, never the root's", arguments: [
        (["decode", "--hex", "7b2"], "Usage: hil decode"),
    ])
    func ownUsage(arguments: [String], usage: String) async throws {
        let run = try await runSeparating(try RigGuest.hilBinary(), arguments)
        #expect(run.status == 64)
        #expect(run.errors.contains(usage), "\(run.errors)")
        #expect(!run.errors.contains("Usage: hil <subcommand>"), "\(run.errors)")
    }

    @Test("an empty folder or only non-scenario files: the command says so, exit 64, no usage of all of hil")
    func noScenarios() async throws {
        let folder = try scratchFolder("words-empty")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await runSeparating(try RigGuest.hilBinary(), ["validate", folder.path])
        #expect(run.status == 64)
        #expect(run.errors.contains("hil validate: \(folder.path): no .json scenario files in this folder"), "\(run.errors)")
        #expect(!run.errors.contains("Usage: hil <subcommand>"), "\(run.errors)")
        let catalog = packageRoot.appendingPathComponent("Scenarios/requirements.json").path
        let named = try await runSeparating(try RigGuest.hilBinary(), ["validate", catalog])
        #expect(named.status == 64 && named.errors.contains("the requirement catalog, not a scenario: skipped"), "\(named.errors)")
    }

    @Test("help says what the code does: run's transports, report's regression rule, vm exec's auto")
    func currentHelp() {
        let root = HIL.helpMessage(columns: 10_000)
        #expect(!root.contains("over a real BLE link") && root.contains("over ble, hid, tcp or udp"), "\(root)")
        let report = HIL.helpMessage(for: ReportCommand.self, columns: 10_000)
        #expect(report.contains("Mann–Whitney") && !report.contains("p95 with this results.json"), "\(report)")
        let exec = HIL.helpMessage(for: VMExecCommand.self, columns: 10_000)
        #expect(exec.contains("for hil vm exec, which runs only vm rigs, auto is the rig named vm"), "\(exec)")
    }

    @Test("one step, one command: counts in the right number")
    func singular() async throws {
        let folder = try scratchFolder("words-one")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("one.json")
        try write(#"{"name": "one", "steps": [{"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}]}"#, to: file)
        let validate = try await runSeparating(try RigGuest.hilBinary(), ["validate", file.path])
        #expect(validate.output.contains(": 1 step, 1 check(s)"), "\(validate.output)")
        #expect(counted(1, "step") == "1 step" && counted(2, "step") == "2 steps" && counted(0, "command") == "0 commands")
    }
}
