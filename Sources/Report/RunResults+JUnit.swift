import Foundation
package import Records
import TextMarkup

extension RunResults {
    /// The run as JUnit XML (junit.xml), for CI: one test case per scenario, classname its folder, failures and
    /// errors with the failed steps' expected vs actual.
    ///
    /// With repeats (`isRepeated`), still one test case per scenario: it fails when any repeat did not pass, and
    /// a scenario whose verdicts differ is marked flaky (a `flaky` property and the verdicts in the message).
    package var junitXML: String {
        isRepeated ? junitRepeated : junitSingle
    }

    private var junitRepeated: String {
        let entries = ScenarioStability.of(scenarios)
        let failing = entries.filter { $0.passed < $0.outcomes.count }
        var xml = Self.junitHeader(
            tests: entries.count, failures: failing.count, errors: 0, seconds: seconds(scenarios), phone: phone)
        for entry in entries {
            let runs = scenarios.filter { $0.file == entry.file }
            let verdicts = entry.outcomes.map(\.rawValue)
            xml += "    <testcase classname=\"\(Self.escape(Self.folder(entry.file)))\""
                + " name=\"\(Self.escape(entry.name))\" time=\"\(Self.time(seconds(runs)))\">\n"
            xml += "      <properties><property name=\"flaky\" value=\"\(entry.flaky)\"/>"
                + "<property name=\"verdicts\" value=\"\(verdicts.joined(separator: " "))\"/></properties>\n"
            if entry.passed < entry.outcomes.count {
                let summary = (entry.flaky ? "flaky: " : "")
                    + "passed \(entry.passed) of \(entry.outcomes.count) repeats (\(verdicts.joined(separator: ", ")))"
                let failed = runs.filter { $0.outcome != .passed }
                let details = failed.map { "repeat \($0.repetition): \($0.outcome.rawValue)\n" + $0.detail }.joined(separator: "\n\n")
                // The message CI shows first: the verdicts, then the first failed repeat's most specific reason.
                let message = failed.first.map { summary + "; repeat \($0.repetition): \($0.firstReason)" } ?? summary
                let type = entry.flaky ? "flaky" : "failed"
                xml += "      <failure message=\"\(Self.escape(message))\" type=\"\(type)\">"
                    + "\(Self.escape(summary + "\n" + details))</failure>\n" + Self.attachments(failed)
            }
            xml += "    </testcase>\n"
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    private var junitSingle: String {
        let failures = scenarios.filter { $0.outcome == .failed || $0.outcome == .inconclusive }.count
        let errors = scenarios.filter { $0.outcome == .error }.count
        var xml = Self.junitHeader(
            tests: scenarios.count, failures: failures, errors: errors, seconds: seconds(scenarios), phone: phone)
        for scenario in scenarios {
            let seconds = (scenario.durationMs ?? 0) / 1000
            xml += "    <testcase classname=\"\(Self.escape(Self.folder(scenario.file)))\""
                + " name=\"\(Self.escape(scenario.name))\" time=\"\(Self.time(seconds))\""
            switch scenario.outcome {
            case .passed:
                let notes = Self.radioNotes(scenario)
                xml += notes.isEmpty ? "/>\n" : ">\n" + Self.attachments([], notes: notes) + "    </testcase>\n"
            case .notApplicable:
                xml += ">\n      <skipped message=\"\(Self.escape(scenario.message.isEmpty ? "not applicable" : scenario.message))\"/>\n    </testcase>\n"
            case .failed, .inconclusive, .error:
                let tag = scenario.outcome == .error ? "error" : "failure"
                let details = scenario.detail
                let first = scenario.firstReason.isEmpty ? scenario.outcome.rawValue : scenario.firstReason
                xml += ">\n      <\(tag) message=\"\(Self.escape(first))\" type=\"\(scenario.outcome.rawValue)\">"
                    + "\(Self.escape(details))</\(tag)>\n" + Self.attachments([scenario], notes: Self.radioNotes(scenario))
                    + "    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    /// The captures of failed scenarios as `<system-out>` lines in the attachments convention CI servers read
    /// (Jenkins' JUnit Attachments plugin, Azure DevOps): `[[ATTACHMENT|path]]`, the path relative to junit.xml's
    /// folder (as results.json's are), after `notes` (a scenario's radio steps). Empty when there are none.
    static func attachments(_ scenarios: [ScenarioResult], notes: [String] = []) -> String {
        let lines = notes + scenarios.flatMap(\.captures).map { "[[ATTACHMENT|\($0.path)]]" }
        guard !lines.isEmpty else { return "" }
        return "      <system-out>\(escape(lines.joined(separator: "\n")))</system-out>\n"
    }

    /// What each radio step of a scenario set, on that step: `steps[1] (radio) unchecked: radio: packet error rate 20 % …`.
    static func radioNotes(_ scenario: ScenarioResult) -> [String] {
        scenario.steps.filter { $0.kind == "radio" && !$0.message.isEmpty }.map { step in
            "steps[\(step.index)] (radio) \(step.outcome.rawValue): " + step.message.replacingOccurrences(of: "\n", with: " / ")
        }
    }

    /// The document's start; with `phone`, the suite's property naming the phone that drove ble and hid.
    private static func junitHeader(tests: Int, failures: Int, errors: Int, seconds: Double, phone: String?) -> String {
        let counts = "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(time(seconds))\""
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites \(counts)>\n"
            + "  <testsuite name=\"hil run\" \(counts)>\n"
            + (phone.map { "    <properties><property name=\"phone\" value=\"\(escape($0))\"/></properties>\n" } ?? "")
    }

    private func seconds(_ scenarios: [ScenarioResult]) -> Double {
        scenarios.reduce(0) { $0 + ($1.durationMs ?? 0) } / 1000
    }

    /// Seconds with 3 decimals: `1.700`.
    private static func time(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }

    /// The scenario file's folder, JUnit's classname: `Scenarios/taps/double-tap.json` → `Scenarios/taps`.
    private static func folder(_ file: String) -> String {
        (file as NSString).deletingLastPathComponent
    }

    private static func escape(_ text: String) -> String {
        Markup.escape(text, apostrophes: false)
    }
}

extension ScenarioResult {
    /// Why the scenario did not pass, in full: each failed or inconclusive step in one line with its most specific
    /// reason (`ScenarioResult.reason(of:)`, so the first line is `firstReason`), the rest of its message indented
    /// under it, then the scenario-level problems. Empty for a passed scenario without a message.
    package var detail: String {
        var lines: [String] = []
        for step in problemSteps {
            lines.append(Self.reason(of: step))
            lines.append(contentsOf: step.message.split(separator: "\n").dropFirst().map { "  " + $0 })
        }
        lines.append(contentsOf: message.split(separator: "\n").map(String.init))
        return lines.joined(separator: "\n")
    }
}
