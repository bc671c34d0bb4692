import Foundation
import HILTestSupport
import Records
import Testing

/// `hil report --history` from the command line, and Rigs/hardware/nightly.sh around it with a stand-in for
/// `hil run` (no rig): the history kept, its page beside each night, the exit status.
@Suite("hil report --history and nightly.sh", .serialized)
struct HistoryCommandTests {
    /// A night's results.json: 40 ble taps around 8 ms (plus `shift`), one scenario with `outcome`.
    static func night(day: Int, second: Int = 0, shift: Double = 0, outcome: String = "passed") -> String {
        var generator = SplitMix64(seed: UInt64(day * 100 + second))
        let steps = (0..<40).map { index in
            let latency = 8 + Double.random(in: -1.5...1.5, using: &generator) + shift
            return #"{"index": \#(index), "kind": "tap", "outcome": "passed", "latencyMs": \#(String(format: "%.3f", latency))}"#
        }
        return """
            {"format": "hil-results/1", "rig": "hardware", "startedAt": "2026-11-\(String(format: "%02d", day))T02:30:\(String(format: "%02d", second))Z",
             "environment": {"kernel": "6.1.0-56-amd64", "bluez": "5.66", "rig": "hardware", "radio": "existing",
                             "build": "release", "commit": "\(String(repeating: String(day % 10), count: 40))"},
             "passed": \(outcome == "passed" ? 1 : 0), "failed": \(outcome == "passed" ? 0 : 1),
             "scenarios": [{"file": "Scenarios/taps.json", "name": "taps", "outcome": "\(outcome)", "transport": "ble",
                            "steps": [\(steps.joined(separator: ", "))]}]}
            """
    }

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "hil-history-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("--history over a folder of nights: the page and summary; --fail-on-regression exits 1 on a +5 ms night only")
    func report() async throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hil = try RigGuest.hilBinary()
        for day in 1...4 {
            try FileManager.default.createDirectory(atPath: "\(root)/nights/n\(day)", withIntermediateDirectories: true)
            try Self.night(day: day).write(toFile: "\(root)/nights/n\(day)/results.json", atomically: true, encoding: .utf8)
        }
        let quiet = try await runSeparating(hil, ["report", "--history", "nights", "--html", "page.html", "--markdown", "page.md",
                                            "--fail-on-regression"], in: URL(fileURLWithPath: root))
        #expect(quiet.status == 0, "\(quiet.errors)")
        #expect(quiet.output.hasPrefix("✅ **hil history: 4 runs** Newest run n4: 1 passed, 0 failed; nothing regressed"))
        #expect(quiet.errors.contains("wrote page.html (4 runs)"))
        #expect(try String(contentsOfFile: root + "/page.md", encoding: .utf8) == quiet.output)
        #expect(try String(contentsOfFile: root + "/page.html", encoding: .utf8).contains("<h1>hil history: 4 runs</h1>"))

        try FileManager.default.createDirectory(atPath: "\(root)/nights/n5", withIntermediateDirectories: true)
        try Self.night(day: 5, shift: 5).write(toFile: "\(root)/nights/n5/results.json", atomically: true, encoding: .utf8)
        let slower = try await runSeparating(hil, ["report", "--history", "nights", "--fail-on-regression", "--keep", "3"],
                                       in: URL(fileURLWithPath: root))
        #expect(slower.status == 1)
        #expect(slower.errors.contains("n5 regressed against its 2 earlier run(s): ble tap p50 "), "\(slower.errors)")
        #expect(slower.errors.contains("removed \(root)/nights/n1 (--keep 3)") && slower.errors.contains("removed \(root)/nights/n2"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/nights").sorted() == ["n3", "n4", "n5"])
    }

    @Test("bad combinations are refused before anything is read (exit 64)")
    func validation() async throws {
        let hil = try RigGuest.hilBinary()
        let keep = try await runSeparating(hil, ["report", "--keep", "3", "results.json"])
        #expect(keep.status == 64 && keep.errors.contains("--keep removes old runs of a history: add --history"))
        let baseline = try await runSeparating(hil, ["report", "--history", "nights", "--baseline", "b.json"])
        #expect(baseline.status == 64 && baseline.errors.contains("leave out --baseline"))
        let zero = try await runSeparating(hil, ["report", "--history", "nights", "--keep", "0"])
        #expect(zero.status == 64)
        let missing = try await runSeparating(hil, ["report", "--history", "/nonexistent-history"])
        #expect(missing.status == 64 && missing.errors.contains("/nonexistent-history: not a folder"))
    }

    @Test("nightly.sh, five nights without a rig: history beside each night, --keep, and the exit status it promises")
    func nightly() async throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The stand-in answers `run` with the next prepared night (its results.json and exit status); everything
        // else goes to the real hil.
        let state = root + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let nights: [(text: String, status: Int)] = [
            (Self.night(day: 1), 0), (Self.night(day: 2), 0), (Self.night(day: 3), 0),
            (Self.night(day: 4, outcome: "failed"), 1), (Self.night(day: 5, shift: 5), 0),
        ]
        for (index, night) in nights.enumerated() {
            try night.text.write(toFile: "\(state)/night\(index + 1).json", atomically: true, encoding: .utf8)
            try "\(night.status)".write(toFile: "\(state)/night\(index + 1).status", atomically: true, encoding: .utf8)
        }
        // The nightly mutation run: a stand-in's mutations.json in the night's mutants/ folder, for the history's score.
        let mutations = MutationResults(
            suites: ["Scenarios/"], build: "release", commit: nil, startedAt: "2026-11-05T03:00:00Z",
            entries: [.init(id: "a", fault: "a", area: "mapping", requirements: ["R1.2"], argued: nil, outcome: .caught),
                      .init(id: "b", fault: "b", area: "timing", requirements: ["R1.2"], argued: nil, outcome: .survived)])
        try mutations.jsonText.write(toFile: state + "/mutations.json", atomically: true, encoding: .utf8)
        try await writeExecutable("""
            #!/usr/bin/env bash
            if [[ $1 == mutants ]]; then
                while [[ $# -gt 0 && $1 != --output ]]; do shift; done
                mkdir -p "$2" && cp "\(state)/mutations.json" "$2/mutations.json" && exit 0
            fi
            if [[ $1 != run ]]; then exec "\(try RigGuest.hilBinary())" "$@"; fi
            if [[ " $* " == *" --phone "* ]]; then echo "$*" >>"\(state)/phones" && exit 0; fi
            count=$(( $(cat "\(state)/count" 2>/dev/null || echo 0) + 1 )); echo "$count" >"\(state)/count"
            echo "$*" >>"\(state)/calls"
            while [[ $# -gt 0 && $1 != --output ]]; do shift; done
            mkdir -p "$2" && cp "\(state)/night$count.json" "$2/results.json"
            exit "$(cat "\(state)/night$count.status")"
            """, to: root + "/fake-hil")
        let script = packageRoot.appendingPathComponent("Rigs/hardware/nightly.sh").path
        var statuses: [Int32] = []
        var errors = ""
        for _ in nights {
            let run = try await runSeparating("/usr/bin/env", ["HIL=\(root)/fake-hil", "HIL_HISTORY_KEEP=3", "HIL_COMMIT=", "bash", script, root + "/reports"])
            statuses.append(run.status)
            errors += run.errors
        }
        // Quiet, quiet, quiet, a failed scenario (hil run's 1), a regression (hil report's 1).
        #expect(statuses == [0, 0, 0, 1, 1], "\(errors)")
        // --keep 3 leaves the newest night two to be compared with.
        #expect(errors.contains("regressed against its 2 earlier run(s): ble tap"), "\(errors)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: root + "/reports").sorted()
        #expect(kept.count == 4 && kept.last == "latest", "\(kept)")
        for night in kept.dropLast() {
            for file in ["results.json", "history.html", "history.md"] {
                #expect(FileManager.default.fileExists(atPath: "\(root)/reports/\(night)/\(file)"), "\(night)/\(file)")
            }
        }
        let newest = try FileManager.default.destinationOfSymbolicLink(atPath: root + "/reports/latest")
        #expect(try String(contentsOfFile: "\(root)/reports/\(newest)/results.json", encoding: .utf8).contains("2026-11-05T02:30"))
        let calls = try String(contentsOfFile: state + "/calls", encoding: .utf8).split(separator: "\n")
        #expect(!calls[0].contains("--baseline") && calls[1].contains("--baseline \(root)/reports/latest/results.json"))
        // Each night runs the ble and hid scenarios again on the Bumble phone, in two profiles, on the vm rig.
        let phones = try String(contentsOfFile: state + "/phones", encoding: .utf8).split(separator: "\n")
        #expect(phones.count == 2 * nights.count, "\(phones)")
        #expect(phones.count > 1 && phones[0].hasPrefix("run --rig vm --phone bumble:ios-like --transport ble,hid --output ")
            && phones[1].hasPrefix("run --rig vm --phone bumble:android-like --transport ble,hid --output "), "\(phones)")
        let summary = try String(contentsOfFile: "\(root)/reports/\(newest)/history.md", encoding: .utf8)
        #expect(summary.hasPrefix("❌ **hil history: 3 runs**"), "\(summary)")
        #expect(summary.contains("| mutation score |") && summary.contains("| 50.0 % (1 of 2) |"), "\(summary)")
    }
}
