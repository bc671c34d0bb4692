import Foundation
import HILTestSupport
import Testing

/// One validity rule for hil validate, replay and run (issue "A newcomer never stumbles", item 1): a file one of
/// them refuses, every one refuses, with the same problem.
@Suite("validate, replay and run judge a scenario file by one rule")
struct ValidityRuleTests {
    /// validate, replay -q and run --list on `file`: each one's exit status and standard error.
    func judged(_ file: String) async throws -> [(command: String, status: Int32, errors: String)] {
        var results: [(String, Int32, String)] = []
        for arguments in [["validate", file], ["replay", "-q", file], ["run", "--list", file]] {
            let run = try await runSeparating(try RigGuest.hilBinary(), arguments)
            results.append((arguments[0], run.status, run.errors))
        }
        return results
    }

    @Test("an unknown requirement id: refused by all three, each naming the id and the catalog")
    func unknownRequirement() async throws {
        let folder = try scratchFolder("rule-ids")
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(#"{"requirements": [{"id": "R1.1", "text": "x"}]}"#, to: folder.appendingPathComponent("requirements.json"))
        let file = folder.appendingPathComponent("a.json")
        try write(#"{"name": "a", "requirements": ["R1.1", "R99.9"], "steps": [{"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}]}"#, to: file)
        for run in try await judged(file.path) {
            #expect(run.status == 64, "\(run.command) exited \(run.status): \(run.errors)")
            #expect(run.errors.contains("requirements[1]: R99.9 is not in"), "\(run.command): \(run.errors)")
        }
    }

    @Test("a scenario that checks nothing: refused by all three (replay said \"not judged\", run ran it)")
    func checksNothing() async throws {
        let folder = try scratchFolder("rule-nothing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bare.json")
        try write(#"{"name": "b", "steps": [{"tap": {}}]}"#, to: file)
        for run in try await judged(file.path) {
            #expect(run.status == 64, "\(run.command) exited \(run.status): \(run.errors)")
            #expect(run.errors.contains("checks nothing"), "\(run.command): \(run.errors)")
        }
    }

    @Test("no requirements.json above a file with requirement ids: valid, and each command says the ids were not checked")
    func noCatalog() async throws {
        let folder = try scratchFolder("rule-loose")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("loose.json")
        try write(#"{"name": "l", "requirements": ["R99.9"], "steps": [{"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}]}"#, to: file)
        for run in try await judged(file.path) {
            #expect(run.status == 0, "\(run.command) exited \(run.status): \(run.errors)")
            #expect(run.errors.contains("note: no requirements.json above \(folder.path): the requirement ids of its scenarios are not checked"),
                    "\(run.command): \(run.errors)")
        }
    }

    @Test("run --list shows coverage against the same catalog whatever the order of the paths")
    func listOrder() async throws {
        let folder = try scratchFolder("rule-order")
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(#"{"requirements": [{"id": "R1.1", "text": "x"}]}"#, to: folder.appendingPathComponent("suite/requirements.json"))
        let inSuite = folder.appendingPathComponent("suite/a.json")
        try write(#"{"name": "a", "requirements": ["R1.1"], "steps": [{"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}]}"#, to: inSuite)
        let loose = folder.appendingPathComponent("loose/b.json")
        try write(#"{"name": "b", "steps": [{"tap": {}, "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"]}}]}"#, to: loose)
        let forward = try await runSeparating(try RigGuest.hilBinary(), ["run", "--list", inSuite.path, loose.path])
        let backward = try await runSeparating(try RigGuest.hilBinary(), ["run", "--list", loose.path, inSuite.path])
        #expect(forward.status == 0 && backward.status == 0, "\(forward.errors)\(backward.errors)")
        for run in [forward, backward] {
            #expect(run.output.contains("coverage of \(folder.appendingPathComponent("suite/requirements.json").resolvingSymlinksInPath().path) by these scenarios"),
                    "\(run.output)")
        }
    }

    @Test("validate lists every problem: each unknown key of settings and run, and an unknown requirement id beside them")
    func everyProblem() async throws {
        let folder = try scratchFolder("rule-every")
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(#"{"requirements": [{"id": "R1.1", "text": "x"}]}"#, to: folder.appendingPathComponent("requirements.json"))
        let file = folder.appendingPathComponent("typos.json")
        try write(#"""
            {"name": "t", "requirements": ["R9.9"], "settings": {"mdoe": "presentation", "sensitivty": 2},
             "run": {"writePth": "fd", "pairin": "none"}, "steps": [{"tap": {}, "expect": {"keys": ["BTN_LEFT 1"], "whithinMs": 9}}]}
            """#, to: file)
        let run = try await runSeparating(try RigGuest.hilBinary(), ["validate", file.path])
        #expect(run.status == 64)
        for key in ["settings.mdoe", "settings.sensitivty", "run.writePth", "run.pairin", "steps[0].expect.whithinMs", "requirements[0]: R9.9"] {
            #expect(run.errors.contains(key), "\(key) not listed:\n\(run.errors)")
        }
    }
}
