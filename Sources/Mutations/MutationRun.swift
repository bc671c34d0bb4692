import Foundation
package import Records
import Processes

/// The suites against each mutant, inside a rig that is up: first the unchanged computer (the control: a suite that
/// fails it says nothing about a mutant), then each mutant with `hil run --computer <mutant> --max-failures 1`, so a
/// mutant is caught by the first scenario that does not pass, and each later suite against the earlier ones'
/// survivors only.
package struct MutationRun: Sendable {
    /// The `hil` that runs the suites (the phone, the verifier, the rig): this one.
    package let hil: String
    /// Suites in order: the first against every mutant, each later one against the survivors.
    package let suites: [[String]]
    /// Where each suite run's results go (`runs/<name>/`).
    package let output: String
    /// Options every `hil run` gets (`--rigs`, `--transport`…).
    package var runArguments: [String] = []
    /// How long one suite run may take.
    package var timeout: Duration = .seconds(3600)
    package let console: @Sendable (String) -> Void

    package init(hil: String, suites: [[String]], output: String, console: @escaping @Sendable (String) -> Void) {
        self.hil = hil
        self.suites = suites
        self.output = output
        self.console = console
    }

    /// Runs `suite` against `computer`; with `stopAtFirst`, up to the first scenario that does not pass.
    /// - Throws: `MutationError` `.suite` when the run left no results.json.
    package func verdict(_ suite: [String], computer: String, name: String, stopAtFirst: Bool) async throws(MutationError) -> SuiteVerdict {
        let folder = output + "/runs/" + name
        try? FileManager.default.removeItem(atPath: folder)
        var arguments = ["run", "--computer", computer, "--output", folder, "--capture", stopAtFirst ? "never" : "failed", "-q"]
        if stopAtFirst { arguments += ["--max-failures", "1"] }
        arguments += runArguments + suite
        let ran: CollectedOutput
        do {
            ran = try await ChildProcess.run(hil, arguments: arguments, errors: .joined, timeout: timeout)
        } catch {
            throw MutationError(.suite, "hil run of \(suite.joined(separator: " ")) against \(name) did not end", cause: error)
        }
        do {
            return SuiteVerdict(try RunResults.load(contentsOf: folder + "/results.json"))
        } catch {
            throw MutationError(.suite, "hil run of \(suite.joined(separator: " ")) against \(name) left no results (exit \(ran.status)): \(String(ran.text.suffix(600)))", cause: error)
        }
    }

    /// The control: every suite must pass the unchanged computer.
    /// - Throws: `MutationError` `.suite` naming the scenario that did not pass.
    package func control(_ computer: String) async throws(MutationError) {
        for suite in suites {
            let started = ContinuousClock.now
            let verdict = try await self.verdict(suite, computer: computer, name: "control", stopAtFirst: false)
            if let scenario = verdict.caughtBy {
                throw MutationError(.suite, "the unchanged computer does not pass \(suite.joined(separator: " ")): \(scenario) \(verdict.detail ?? "")",
                                    hint: "a mutant caught by a suite that fails anyway means nothing: mend the suite or the rig first (\(output)/runs/control)")
            }
            console("control: the unchanged computer passes \(suite.joined(separator: " ")) (\(verdict.scenarios) scenarios, \(Self.seconds(started)))")
        }
    }

    /// Every fault against the suites in turn; a fault without a binary is `broken` with its reason.
    package func run(_ faults: [Fault], binaries: [String: Result<String, MutantBuilder.BuildFailure>]) async -> [MutationResults.Entry] {
        var entries = faults.map { fault in
            MutationResults.Entry(id: fault.id, fault: fault.fault, area: fault.area, requirements: fault.requirements,
                                  argued: fault.argued, outcome: .survived)
        }
        for (index, fault) in faults.enumerated() {
            if case .failure(let why)? = binaries[fault.id] {
                entries[index].outcome = .broken
                entries[index].detail = why.description
            } else if binaries[fault.id] == nil {
                entries[index].outcome = .broken
                entries[index].detail = "not built"
            }
        }
        for suite in suites {
            let pending = entries.indices.filter { entries[$0].outcome == .survived }
            for (position, index) in pending.enumerated() {
                guard case .success(let computer)? = binaries[faults[index].id] else { continue }
                let started = ContinuousClock.now
                let label = "[\(position + 1)/\(pending.count)] \(faults[index].id)"
                do {
                    let verdict = try await self.verdict(suite, computer: computer, name: faults[index].id, stopAtFirst: true)
                    entries[index].seconds += Self.elapsed(started)
                    if let scenario = verdict.caughtBy {
                        entries[index].outcome = .caught
                        entries[index].suite = suite.joined(separator: " ")
                        entries[index].caughtBy = scenario
                        entries[index].detail = verdict.detail
                        console("\(label): CAUGHT by \(scenario) (\(Self.seconds(started))): \(verdict.detail ?? "")")
                    } else {
                        console("\(label): survived \(suite.joined(separator: " ")) (\(verdict.scenarios) scenarios, \(Self.seconds(started)))")
                    }
                } catch {
                    entries[index].outcome = .broken
                    entries[index].detail = "\(error)"
                    console("\(label): no verdict: \(error)")
                }
            }
        }
        return entries
    }

    /// `12.3 s` since `since`.
    package static func seconds(_ since: ContinuousClock.Instant) -> String {
        String(format: "%.1f s", elapsed(since))
    }

    static func elapsed(_ since: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - since
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
